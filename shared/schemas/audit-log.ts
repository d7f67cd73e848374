import { z } from 'zod';
import { uuidSchema } from './common';
import { configChangeSchema } from './project-history';

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
  /** Whether the event keeps what its object looked like before and after the write (read one event for them). */
  has_changes: z.boolean(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** One event with the written object before and after the write (null before a create, after a delete), secrets redacted. */
export const auditEventDetailSchema = auditEventSchema.extend({ before: z.unknown(), after: z.unknown() });
export type AuditEventDetail = z.infer<typeof auditEventDetailSchema>;

export const auditEventsPageSchema = z.object({
  events: z.array(auditEventSchema),
  /** Empty on the last page. */
  next_page_token: z.string(),
  /** How many days back the log reaches on the plan in force (older events are not shown); null: no limit. */
  retention_days: z.number().int().positive().nullable(),
});

/** A page asked for `with_changes`: each event with its before and after. */
export const auditEventsDetailPageSchema = auditEventsPageSchema.extend({ events: z.array(auditEventDetailSchema) });

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
  /** Each event with its before and after (for an export), as one event answers them. */
  with_changes: z.enum(['true', 'false'], { error: 'with_changes must be true or false' }).optional(),
});

// ---- procedures ----

/** A workspace's log (`workspaceId`) or a project's (`projectId`), exactly one, with filters. */
const auditLogFilters = z.object({
  projectId: uuidSchema.optional(),
  workspaceId: uuidSchema.optional(),
  actorId: z.uuid({ error: 'Choose a member from the list' }).optional(),
  action: actionFilter.optional(),
  /** In a workspace's log, the events of one of its projects. */
  forProjectId: z.uuid({ error: 'Choose a project from the list' }).optional(),
  from: instant('from').optional(),
  to: instant('to').optional(),
});
export type AuditLogFilters = z.infer<typeof auditLogFilters>;

/** Exactly one scope, and a time window that is not reversed. */
const checkedFilters = <S extends z.ZodType<AuditLogFilters>>(schema: S) =>
  schema
    .refine((v) => (v.projectId === undefined) !== (v.workspaceId === undefined), { error: 'Name a project (projectId) or a workspace (workspaceId), not both.', path: ['projectId'] })
    .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), { error: 'from must not be after to', path: ['to'] });

export const auditLogListInput = checkedFilters(auditLogFilters.extend({ pageToken: z.string().max(64).optional() }));

export const auditLogListOutput = z.object({
  events: z.array(auditEventSchema),
  nextPageToken: z.string().nullable(),
  /** How many days back the log reaches on the plan in force; null: no limit. */
  retentionDays: z.number().int().positive().nullable(),
});

/** The most events one export holds: the newest ones, when more match. */
export const AUDIT_EXPORT_LIMIT = 10_000;
/** The most JSON text of events one export holds (32 Mi characters; 10,000 events are some 15 Mi): the newest ones, when more match. */
export const AUDIT_EXPORT_MAX_CHARS = 32 * 1024 * 1024;

/** Every event of a log that the filters select, as one file. */
export const auditLogExportInput = checkedFilters(auditLogFilters.extend({ format: z.enum(['csv', 'json'], { error: 'format is csv or json' }) }));

export const auditLogExportOutput = z.object({
  filename: z.string(),
  contentType: z.string(),
  content: z.string(),
  /** How many events the file holds. */
  count: z.number().int(),
  /** Whether more events matched than the file holds (it holds the newest, up to AUDIT_EXPORT_LIMIT and AUDIT_EXPORT_MAX_CHARS). */
  truncated: z.boolean(),
});

/** One event of a workspace's log (`workspaceId`) or a project's (`projectId`), with its before and after. */
export const auditLogGetInput = z
  .object({
    projectId: uuidSchema.optional(),
    workspaceId: uuidSchema.optional(),
    eventId: z.uuid({ error: 'eventId must be the id of an event of this log' }),
  })
  .refine((v) => (v.projectId === undefined) !== (v.workspaceId === undefined), { error: 'Name a project (projectId) or a workspace (workspaceId), not both.', path: ['projectId'] });

export const auditLogGetOutput = auditEventDetailSchema.extend({
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  /** What the write changed, from before to after, at JSON pointers (as a configuration revision shows its changes). */
  changes: z.array(configChangeSchema),
  /** Whether the changes were cut. */
  truncated: z.boolean(),
});
