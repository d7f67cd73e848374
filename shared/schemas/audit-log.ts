import { z } from 'zod';
import { uuidSchema } from './common';

/*
 * The audit log of a workspace (and of each project): who did what through the console or the API, on which project or object,
 * when, and how it ended. The local stack records it on the control plane (Ory Network publishes no such
 * call); only the workspace's members read it.
 */

export const auditActorKindSchema = z.enum(['user', 'workspace_api_key', 'project_api_key']);
export type AuditActorKind = z.infer<typeof auditActorKindSchema>;

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({
    /** The identity that acted (the member, or the owner of the workspace key used); null for a project key. */
    id: z.string().nullable(),
    kind: auditActorKindSchema,
    /** The actor's email address, while their account exists. */
    email: z.string().nullable(),
    /** The API key used, when one was. */
    key_id: z.string().nullable(),
  }),
  /** `<object>.<verb>`, such as `project_api_key.create` or `project.config_update`. */
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  project_id: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  /** The HTTP status the write answered. */
  status: z.number().int(),
  /** The fields (or JSON patch paths) the write sent: names only, never values. */
  fields: z.array(z.string()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditEventsPageSchema = z.object({
  events: z.array(auditEventSchema),
  /** Empty on the last page. */
  next_page_token: z.string(),
});

const instant = (what: string) => z.iso.datetime({ offset: true, error: `${what} must be an RFC 3339 date and time, such as 2026-01-31T00:00:00Z` });
/** An action, or the object part of one (`project` finds `project.create`, `project.delete`, …). */
const actionFilter = z
  .string()
  .max(100, { error: 'action is at most 100 characters' })
  .regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, { error: 'action is an action name such as project.create, or the part before its dot, such as project' });

export const auditLogQuery = z.object({
  page_size: z.coerce.number({ error: 'page_size is a number from 1 to 100' }).int().min(1).max(100).optional(),
  page_token: z.string().max(64).optional(),
  actor_id: z.uuid({ error: 'actor_id must be a UUID' }).optional(),
  action: actionFilter.optional(),
  project_id: z.uuid({ error: 'project_id must be a UUID' }).optional(),
  from: instant('from').optional(),
  to: instant('to').optional(),
});

// ---- procedures ----

/** A workspace's log (`workspaceId`) or a project's (`projectId`), exactly one, with filters. */
export const auditLogListInput = z
  .object({
    projectId: uuidSchema.optional(),
    workspaceId: uuidSchema.optional(),
    pageToken: z.string().max(64).optional(),
    actorId: z.uuid({ error: 'Choose a member from the list' }).optional(),
    action: actionFilter.optional(),
    /** In a workspace's log, the events of one of its projects. */
    forProjectId: z.uuid({ error: 'Choose a project from the list' }).optional(),
    from: instant('from').optional(),
    to: instant('to').optional(),
  })
  .refine((v) => (v.projectId === undefined) !== (v.workspaceId === undefined), { error: 'Name a project (projectId) or a workspace (workspaceId), not both.', path: ['projectId'] })
  .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), { error: 'from must not be after to', path: ['to'] });

export const auditLogListOutput = z.object({ events: z.array(auditEventSchema), nextPageToken: z.string().nullable() });
