import { z } from 'zod';
import { environmentSchema, uuidSchema } from '../../shared/schemas/common';
import { homeRegionSchema, projectNameSchema } from '../../shared/schemas/project';
import { workspaceNameSchema } from '../../shared/schemas/workspace';

/** Request bodies of the control plane, in the shapes @ory/client sends. */

export const createProjectBody = z.object({
  name: projectNameSchema,
  environment: environmentSchema,
  home_region: homeRegionSchema.optional(),
  workspace_id: uuidSchema.nullable().optional(),
});

const serviceSchema = z.looseObject({ config: z.record(z.string(), z.unknown()) });

export const servicesSchema = z.strictObject({
  identity: serviceSchema.optional(),
  oauth2: serviceSchema.optional(),
  permission: serviceSchema.optional(),
  account_experience: serviceSchema.optional(),
  talos: serviceSchema.optional(),
});

export const corsSchema = z.object({
  enabled: z.boolean().optional(),
  origins: z.array(z.string()).optional(),
});

/** setProject: the full configuration. Omitted cors settings keep their current values. */
export const setProjectBody = z.object({
  name: projectNameSchema,
  services: servicesSchema,
  cors_admin: corsSchema.optional(),
  cors_public: corsSchema.optional(),
  organizations: z.array(z.unknown()).optional(),
});

export const setEnvironmentBody = z.object({ environment: environmentSchema });

/** normalizedProjectRevision: only name is required; every other field is stored as given. */
export const normalizedRevisionBody = z.looseObject({ name: projectNameSchema });

/** CreateProjectNormalizedPayload: revision fields plus where and how the project lives. */
export const createNormalizedProjectBody = z.looseObject({
  name: projectNameSchema,
  environment: environmentSchema,
  home_region: homeRegionSchema.optional(),
  workspace_id: uuidSchema.nullable().optional(),
});

export const activeProjectBody = z.object({ project_id: uuidSchema });

export const createWorkspaceBody = z.object({ name: workspaceNameSchema });

export const updateWorkspaceBody = z.object({
  name: workspaceNameSchema,
  access_policy: z.enum(['CHECK_ORGANIZATION_AND_WORKSPACE_MEMBERSHIP', 'CHECK_ACCESS_PERMISSION']).optional(),
});

/**
 * Moving a project into a workspace: Ory's published addProjectToWorkspaceBody `{environment,
 * project_subscription}`, or the spec's link body `{workspace, project, original_workspace_id?}`; a body
 * may carry both. There are no subscriptions here, so `project_subscription` changes nothing.
 */
export const addProjectToWorkspaceBody = z
  .object({
    workspace: uuidSchema.optional(),
    project: uuidSchema.optional(),
    original_workspace_id: uuidSchema.nullable().optional(),
    environment: environmentSchema.optional(),
    project_subscription: z.enum(['migrate', 'ignore']).optional(),
  })
  .refine((b) => (b.environment !== undefined && b.project_subscription !== undefined) || (b.workspace && b.project), {
    error: 'send environment and project_subscription, or workspace and project',
  });

export const accessBody = z
  .array(z.object({ permission: z.string().min(1).max(200) }))
  .min(1)
  .max(32);

/** Path ids are UUIDs (compared lower-case); anything else is a 400 naming the parameter. */
const pathUuid = z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase());
/** `{project}`: the project's id or its slug. */
const projectRef = z.string().regex(/^[A-Za-z0-9-]{1,100}$/, { error: "must be the project's ID or slug" });

export const projectIdParams = z.object({ project_id: pathUuid });
export const projectRevisionParams = z.object({ project_id: pathUuid, revision_id: pathUuid });
export const projectMemberParams = z.object({ project_id: pathUuid, member: pathUuid });
export const projectRefParams = z.object({ project: projectRef });
export const projectTokenParams = z.object({ project: projectRef, token_id: pathUuid });
export const workspaceParams = z.object({ workspace: pathUuid });
export const workspaceMemberParams = z.object({ workspace: pathUuid, member: pathUuid });
export const workspaceTokenParams = z.object({ workspace: pathUuid, token_id: pathUuid });
export const workspaceProjectParams = z.object({ workspace: pathUuid, project_id: pathUuid });

/** createProjectApiKeyBody and CreateWorkspaceApiKeyBody: a name, and optionally when the key stops working. */
export const createApiKeyBody = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' }),
  expires_at: z.iso
    .datetime({ offset: true, error: 'must be an RFC 3339 date-time such as 2030-01-01T00:00:00Z' })
    .refine((at) => Date.parse(at) > Date.now(), { error: 'must be in the future' })
    .nullable()
    .optional(),
});

export const pageQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(500).default(100),
  page_token: z.string().min(1).max(512).optional(),
});
