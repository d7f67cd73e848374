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

// ---- the project's configuration as a whole (ProjectApi.setProject / patchProject, PUT /normalized/projects) ----

/** Ory's jsonPatch: one RFC 6902 operation. */
export const jsonPatchOperationSchema = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test'], { message: 'op must be one of add, remove, replace, move, copy, test' }),
  path: z.string().startsWith('/', { message: 'path must be a JSON pointer starting with /' }).max(512),
  from: z.string().startsWith('/', { message: 'from must be a JSON pointer starting with /' }).max(512).optional(),
  value: z.unknown().optional(),
});
export const jsonPatchSchema = z
  .array(jsonPatchOperationSchema)
  .min(1, { message: 'The patch needs at least one operation' })
  .max(200, { message: 'A patch has at most 200 operations' });

const projectCorsSchema = z.object({
  enabled: z.boolean().optional(),
  origins: z.array(z.string().max(2048)).max(100, { message: 'At most 100 origins' }).optional(),
});
const projectServiceSchema = z.looseObject({ config: z.record(z.string(), z.unknown()) });

/** setProject: the whole settable configuration (name, services, CORS). */
export const projectConfigurationSchema = z.object({
  name: projectNameSchema,
  services: z.partialRecord(z.enum(['identity', 'oauth2', 'permission', 'account_experience', 'talos']), projectServiceSchema),
  cors_admin: projectCorsSchema.optional(),
  cors_public: projectCorsSchema.optional(),
});
export type ProjectConfiguration = z.infer<typeof projectConfigurationSchema>;

export const createPlainProjectInput = createProjectInput;

export const replaceProjectInput = z.object({
  projectId: uuidSchema,
  configuration: projectConfigurationSchema,
  /** The revision the edit started from: a change made elsewhere since answers CONFLICT instead of being overwritten. */
  revisionId: uuidSchema.optional(),
});

export const patchProjectInput = z.object({ projectId: uuidSchema, patch: jsonPatchSchema });

/** A normalized revision as a whole: `name` and the flat fields (read-only ones are ignored). */
export const replaceNormalizedProjectInput = z.object({
  projectId: uuidSchema,
  revision: z.looseObject({ name: projectNameSchema }),
  /** The revision the edit started from, as for replaceProjectInput. */
  revisionId: uuidSchema.optional(),
});

/** successfulProjectUpdate: the project after the change, and what the identity service warns about. */
export const projectUpdateOutput = z.object({
  project: projectSchema,
  warnings: z.array(z.looseObject({ message: z.string().optional() })),
});

/**
 * How far a project is on the way to its first signed-in user (the guided tour and the project's checklist):
 * each step done or not, read from the project's own data plane and team.
 */
export const projectProgressOutput = z.object({
  /** At least one identity exists (created by hand, imported or signed up). */
  identity: z.boolean(),
  /** At least one end user has signed in (a session exists, active or not). */
  signIn: z.boolean(),
  /** At least one OAuth2 client is registered. */
  oauth2Client: z.boolean(),
  /** Someone else is a member of the project, or has been invited to it. */
  teammate: z.boolean(),
});
export type ProjectProgress = z.infer<typeof projectProgressOutput>;
