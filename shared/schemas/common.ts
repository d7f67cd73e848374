import { z } from 'zod';

/** Ory ids are UUIDs; every id a caller passes is checked before it reaches an upstream. */
export const uuidSchema = z.uuid({ message: 'Must be a UUID' });

export const environmentSchema = z.enum(['prod', 'stage', 'dev']);
export type Environment = z.infer<typeof environmentSchema>;

export const workspaceRoleSchema = z.enum(['owner', 'developer']);
export type WorkspaceRole = z.infer<typeof workspaceRoleSchema>;

/** Page request of a paginated list (Ory style: page_size plus an opaque page_token). */
export const pageInputSchema = z.object({
  pageSize: z.number().int().min(1).max(500).optional(),
  pageToken: z.string().min(1).max(512).optional(),
});
export type PageInput = z.infer<typeof pageInputSchema>;

/** Ory's errorGeneric. */
export const oryErrorSchema = z.object({
  error: z.object({
    id: z.string().optional(),
    code: z.number().int().optional(),
    status: z.string().optional(),
    reason: z.string().optional(),
    message: z.string(),
    request: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type OryError = z.infer<typeof oryErrorSchema>;
