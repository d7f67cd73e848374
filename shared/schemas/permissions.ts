import type { PermissionsOnWorkspace } from '@ory/client';
import { z } from 'zod';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

/**
 * Spec §6: the four project permissions the console asks about, and `owner`: managing members, invites and
 * API keys, which spec §6 leaves open and this console gives to owners alone.
 */
export const projectPermissionSchema = z.enum([
  'backoffice.project.delete',
  'backoffice.project.read',
  'backoffice.project.write',
  'backoffice.project.upgrade',
  'backoffice.project.owner',
]);
export type ProjectPermission = z.infer<typeof projectPermissionSchema>;

export const workspacePermissionSchema = z.enum([
  'backoffice.workspace.delete',
  'backoffice.workspace.read',
  'backoffice.workspace.write',
  'backoffice.workspace.upgrade',
  'backoffice.workspace.owner',
]);
export type WorkspacePermission = z.infer<typeof workspacePermissionSchema>;

/** Body of POST /projects/{id}/access: a list of permission queries. */
export const projectAccessRequestSchema = z.array(z.object({ permission: z.string().min(1) })).min(1).max(32);
/** Answer of POST /projects/{id}/access: permission name → allowed. */
export const projectAccessResponseSchema = z.record(z.string(), z.boolean());
/** Body and answer of POST /workspaces/{id}/access (permissionsOnWorkspace). */
export const workspaceAccessRequestSchema = projectAccessRequestSchema;
export const workspaceAccessResponseSchema = conformsTo<PermissionsOnWorkspace>()(z.object({ permissions: z.record(z.string(), z.boolean()) }));

export const projectPermissionsInput = z.object({
  projectId: uuidSchema,
  permissions: z.array(projectPermissionSchema).min(1).max(5),
});
export const workspacePermissionsInput = z.object({
  workspaceId: uuidSchema,
  permissions: z.array(workspacePermissionSchema).min(1).max(5),
});

// ---- procedure outputs: the asked names, each allowed or not ----

export const projectPermissionsOutput = z.partialRecord(projectPermissionSchema, z.boolean());
export const workspacePermissionsOutput = z.partialRecord(workspacePermissionSchema, z.boolean());
