import type { ListWorkspaceProjects, ListWorkspaces, Workspace as OryWorkspace } from '@ory/client';
import { z } from 'zod';
import { environmentSchema, pageInputSchema, uuidSchema } from './common';
import { projectMetadataSchema } from './project';
import { conformsTo, type Relaxed } from './wire';

export const workspaceNameSchema = z
  .string()
  .trim()
  .min(1, { message: 'Workspace name is required' })
  .max(255, { message: 'Workspace name must be at most 255 characters' });

export const workspaceAccessPolicySchema = z.enum(['CHECK_ORGANIZATION_AND_WORKSPACE_MEMBERSHIP', 'CHECK_ACCESS_PERMISSION']);

export const workspaceSchema = conformsTo<OryWorkspace>()(
  z.object({
    id: z.string(),
    name: z.string(),
    subscription_id: z.string().nullable().optional(),
    subscription_plan: z.string().nullable().optional(),
    created_at: z.string(),
    updated_at: z.string(),
    access_policy: workspaceAccessPolicySchema.optional(),
  }),
);
export type Workspace = z.infer<typeof workspaceSchema>;

/** Spec §3: the placeholder workspace that holds projects which belong to no workspace (it has no id). */
export type PlaceholderWorkspace = Omit<Workspace, 'id'> & { id: null };
export const PLACEHOLDER_WORKSPACE: PlaceholderWorkspace = Object.freeze({
  id: null,
  name: 'No workspace',
  subscription_id: null,
  created_at: '1970-01-01T00:00:00Z',
  updated_at: '1970-01-01T00:00:00Z',
});

/** The last page carries no token: the generated model says a string, the API answers null or nothing. */
export const listWorkspacesResponseSchema = conformsTo<Relaxed<ListWorkspaces, 'next_page_token'>>()(
  z.object({
    workspaces: z.array(workspaceSchema),
    has_next_page: z.boolean(),
    next_page_token: z.string().nullable().optional(),
  }),
);
export type ListWorkspacesResponse = z.infer<typeof listWorkspacesResponseSchema>;

export const listWorkspaceProjectsResponseSchema = conformsTo<Relaxed<ListWorkspaceProjects, 'next_page'>>()(
  z.object({
    projects: z.array(projectMetadataSchema),
    has_next_page: z.boolean(),
    next_page: z.string().nullable().optional(),
  }),
);
export type WorkspaceProjectsPage = z.infer<typeof listWorkspaceProjectsResponseSchema>;

/** Body of POST /workspaces/{workspace}/add/{project} (spec §3; no @ory/client model matches it). */
export const workspaceProjectLinkSchema = z.object({
  workspace: z.string(),
  project: z.string(),
  original_workspace_id: z.string().nullable().optional(),
});

// ---- procedure inputs ----

export const workspaceIdInput = z.object({ workspaceId: uuidSchema });
/** The user types the workspace's name to confirm; the server checks it against the real name. */
export const deleteWorkspaceInput = z.object({
  workspaceId: uuidSchema,
  confirmName: z.string().min(1, { message: 'Type the workspace name to confirm deletion' }),
});

export const listWorkspacesInput = pageInputSchema.optional();

export const createWorkspaceInput = z.object({ name: workspaceNameSchema });

export const updateWorkspaceInput = z.object({
  workspaceId: uuidSchema,
  name: workspaceNameSchema,
});

export const listWorkspaceProjectsInput = z.object({ workspaceId: uuidSchema });

export const addProjectToWorkspaceInput = z.object({
  workspaceId: uuidSchema,
  projectId: uuidSchema,
  environment: environmentSchema.optional(),
});

// ---- procedure outputs ----

export const workspaceProjectsOutput = z.array(projectMetadataSchema);
