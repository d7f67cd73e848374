import { z } from 'zod';
import { environmentSchema, uuidSchema } from '../../../shared/schemas/common';
import { homeRegionSchema, projectNameSchema } from '../../../shared/schemas/project';
import { workspaceNameSchema } from '../../../shared/schemas/workspace';

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

/** Spec §3 link body; environment and project_subscription (addProjectToWorkspaceBody) are accepted too. */
export const addProjectToWorkspaceBody = z.object({
  workspace: uuidSchema,
  project: uuidSchema,
  original_workspace_id: uuidSchema.nullable().optional(),
  environment: environmentSchema.optional(),
  project_subscription: z.enum(['migrate', 'ignore']).optional(),
});

export const accessBody = z
  .array(z.object({ permission: z.string().min(1).max(200) }))
  .min(1)
  .max(32);

export const pageQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(500).default(100),
  page_token: z.string().min(1).max(512).optional(),
});
