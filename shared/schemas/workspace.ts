import { z } from 'zod';
import { environmentSchema, pageInputSchema, uuidSchema } from './common';
import { projectMetadataSchema } from './project';

export const workspaceNameSchema = z
  .string()
  .trim()
  .min(1, { message: 'Workspace name is required' })
  .max(255, { message: 'Workspace name must be at most 255 characters' });

export const workspaceSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  subscription_id: z.string().nullable().optional(),
  subscription_plan: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  access_policy: z.string().optional(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

/** Spec §3: the placeholder workspace that holds projects which belong to no workspace. */
export const PLACEHOLDER_WORKSPACE: Workspace = Object.freeze({
  id: null,
  name: 'No workspace',
  subscription_id: null,
  created_at: '1970-01-01T00:00:00Z',
  updated_at: '1970-01-01T00:00:00Z',
}) as Workspace;

export const listWorkspacesResponseSchema = z.object({
  workspaces: z.array(workspaceSchema),
  has_next_page: z.boolean(),
  next_page_token: z.string().nullable().optional(),
});
export type ListWorkspacesResponse = z.infer<typeof listWorkspacesResponseSchema>;

export const listWorkspaceProjectsResponseSchema = z.object({
  projects: z.array(projectMetadataSchema),
  has_next_page: z.boolean(),
  next_page: z.string().nullable().optional(),
});

export const workspaceProjectLinkSchema = z.object({
  workspace: z.string(),
  project: z.string(),
  original_workspace_id: z.string().nullable().optional(),
});

// ---- procedure inputs ----

export const workspaceIdInput = z.object({ workspace: uuidSchema });

export const listWorkspacesInput = pageInputSchema.optional();

export const createWorkspaceInput = z.object({ name: workspaceNameSchema });

export const updateWorkspaceInput = z.object({
  workspace: uuidSchema,
  name: workspaceNameSchema,
});

export const listWorkspaceProjectsInput = z.object({ workspace: uuidSchema });

export const addProjectToWorkspaceInput = z.object({
  workspace: uuidSchema,
  project: uuidSchema,
  environment: environmentSchema.optional(),
});
