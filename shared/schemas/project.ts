import type {
  NormalizedProject as OryNormalizedProject,
  NormalizedProjectRevision as OryNormalizedProjectRevision,
  Project as OryProject,
  ProjectMember as OryProjectMember,
  ProjectMetadata as OryProjectMetadata,
} from '@ory/client';
import { z } from 'zod';
import { environmentSchema, uuidSchema } from './common';
import { conformsTo } from './wire';

export const projectStateSchema = z.enum(['running', 'halted', 'deleted']);
export const homeRegionSchema = z.enum([
  'eu-central',
  'asia-northeast',
  'us-east',
  'us-west',
  'eu',
  'asia',
  'us',
  'global',
]);

export const projectNameSchema = z
  .string()
  .trim()
  .min(1, { message: 'Project name is required' })
  .max(255, { message: 'Project name must be at most 255 characters' });

/** projectMetadata: one item of GET /projects and of a workspace's project list. */
export const projectMetadataSchema = conformsTo<OryProjectMetadata>()(z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  state: projectStateSchema,
  environment: environmentSchema,
  home_region: homeRegionSchema,
  hosts: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  subscription_id: z.string().nullable().optional(),
  subscription_plan: z.string().nullable().optional(),
  workspace_id: z.string().nullable().optional(),
}));
export type ProjectMetadata = z.infer<typeof projectMetadataSchema>;

/** project: the full configuration form (GET /projects/{id}). Unknown fields pass through. */
export const projectSchema = conformsTo<Omit<OryProject, 'organizations' | 'services'>>()(
  z.looseObject({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    revision_id: z.string(),
    state: projectStateSchema,
    environment: environmentSchema,
    home_region: homeRegionSchema,
    workspace_id: z.string().nullable().optional(),
    services: z.record(z.string(), z.unknown()),
  }),
);
export type Project = z.infer<typeof projectSchema>;

/** normalizedProjectRevision: only `name` is required; hundreds of optional flat fields pass through. */
export const normalizedProjectRevisionSchema = conformsTo<OryNormalizedProjectRevision>()(
  z.looseObject({
    id: z.string().optional(),
    project_id: z.string().optional(),
    name: z.string(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
  }),
);
export type NormalizedProjectRevision = z.infer<typeof normalizedProjectRevisionSchema>;

/** normalizedProject: how the console loads one project (by projectId). */
export const normalizedProjectSchema = conformsTo<OryNormalizedProject>()(
  z.looseObject({
    id: z.string(),
    slug: z.string(),
    state: projectStateSchema,
    home_region: homeRegionSchema,
    created_at: z.string(),
    updated_at: z.string(),
    environment: environmentSchema,
    hosts: z.array(z.string()),
    workspace_id: z.string().nullable(),
    subscription_id: z.string().nullable().optional(),
    subscription_plan: z.string().nullable().optional(),
    current_revision: normalizedProjectRevisionSchema,
  }),
);
export type NormalizedProject = z.infer<typeof normalizedProjectSchema>;

export const projectMemberRoleSchema = z.enum(['owner', 'developer', 'viewer']);

export const projectMemberSchema = conformsTo<OryProjectMember>()(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    email_verified: z.boolean(),
    role: projectMemberRoleSchema,
    source: z.enum(['project', 'workspace']).optional(),
  }),
);
export type ProjectMember = z.infer<typeof projectMemberSchema>;

/** GET/PUT /console/active/project (no @ory/client model in the current spec). */
export const activeProjectSchema = z.object({ project_id: z.string().nullable().optional() });

// ---- procedure inputs (the BFF validates with these; client forms reuse them) ----

export const projectIdInput = z.object({ projectId: uuidSchema });

export const createProjectInput = z.object({
  name: projectNameSchema,
  environment: environmentSchema.default('dev'),
  workspaceId: uuidSchema.optional(),
});
export type CreateProjectInput = z.infer<typeof createProjectInput>;

export const updateProjectInput = z.object({
  projectId: uuidSchema,
  name: projectNameSchema,
  /**
   * The revision the edit started from. When given, the change applies onto that revision only, so an
   * edit made elsewhere in between answers CONFLICT instead of being overwritten.
   */
  revisionId: uuidSchema.optional(),
});

export const setProjectEnvironmentInput = z.object({
  projectId: uuidSchema,
  environment: environmentSchema,
});

export const deleteProjectInput = z.object({
  projectId: uuidSchema,
  /** The user types the project's name to confirm; the server checks it against the real name. */
  confirmName: z.string().min(1, { message: 'Type the project name to confirm deletion' }),
});

export const setActiveProjectInput = z.object({ projectId: uuidSchema });

// ---- procedure outputs ----

export const projectListOutput = z.array(projectMetadataSchema);
export const projectMembersOutput = z.array(projectMemberSchema);
/** Where the project's own API answers (PROJECT_API_URL with its slug); null when the deployment has none. */
export const projectEndpointOutput = z.object({ apiUrl: z.string().nullable() });
export const activeProjectOutput = z.object({ projectId: z.string() });
export const deletedOutput = z.object({ ok: z.literal(true) });
