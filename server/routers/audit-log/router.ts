import {
  AUDIT_EXPORT_LIMIT,
  AUDIT_EXPORT_MAX_CHARS,
  auditLogExportInput,
  auditLogExportOutput,
  auditLogGetInput,
  auditLogGetOutput,
  auditLogListInput,
  auditLogListOutput,
  type AuditEventDetail,
  type AuditLogFilters,
} from '../../../shared/schemas/audit-log';
import { router, scopeProcedure } from '../../trpc/init';
import { configChanges } from '../project-history/changes';
import { auditCsv } from './export';

/** The filters of a log's procedures as the local stack's query. */
const filterQuery = (input: AuditLogFilters) => ({ actor_id: input.actorId, action: input.action, project_id: input.forProjectId, from: input.from, to: input.to });

/**
 * The events of a log page by page, newest first, until its last page or the bounds of an export: whether
 * more events matched than it holds says `truncated`.
 */
async function newestEvents(read: (pageToken: string | undefined) => Promise<{ events: AuditEventDetail[]; next_page_token: string }>) {
  const events: AuditEventDetail[] = [];
  let size = 0;
  let token: string | undefined;
  do {
    const page = await read(token);
    for (const event of page.events) {
      size += JSON.stringify(event).length;
      if (events.length === AUDIT_EXPORT_LIMIT || size > AUDIT_EXPORT_MAX_CHARS) return { events, truncated: true };
      events.push(event);
    }
    token = page.next_page_token || undefined;
  } while (token);
  return { events, truncated: false };
}

/**
 * The audit log of a workspace or of a project: who did what (actor, action, target, time, outcome) through
 * the console or the API, newest first, filtered by actor, action, project and time. Only the members of the
 * workspace (or of the project) read it.
 */
export const auditLogRouter = router({
  list: scopeProcedure('read')
    .input(auditLogListInput)
    .output(auditLogListOutput)
    .query(async ({ ctx, input }) => {
      const page = await ctx.deps.backoffice.auditLog(ctx.call, ctx.scope, { page_token: input.pageToken, ...filterQuery(input) });
      return { events: page.events, nextPageToken: page.next_page_token || null, retentionDays: page.retention_days };
    }),
  /** One event with what its object looked like before and after the write (secrets redacted). */
  get: scopeProcedure('read')
    .input(auditLogGetInput)
    .output(auditLogGetOutput)
    .query(async ({ ctx, input }) => {
      const event = await ctx.deps.backoffice.auditEvent(ctx.call, ctx.scope, input.eventId);
      const before = event.before ?? null;
      const after = event.after ?? null;
      // A create's object is compared with nothing, a delete's with nothing: each field shows as added, or removed.
      return { ...event, before, after, ...configChanges(before ?? {}, after ?? {}) };
    }),
  /**
   * Every event the filters select, newest first, with its before and after, as a CSV or JSON file: at most
   * AUDIT_EXPORT_LIMIT of them, and AUDIT_EXPORT_MAX_CHARS of their JSON (the newest); the answer says when
   * more matched.
   */
  export: scopeProcedure('read')
    .input(auditLogExportInput)
    .output(auditLogExportOutput)
    .query(async ({ ctx, input }) => {
      const { events, truncated } = await newestEvents((pageToken) => ctx.deps.backoffice.auditLogWithChanges(ctx.call, ctx.scope, { ...filterQuery(input), page_token: pageToken }));
      const name = `audit-log-${input.projectId ?? input.workspaceId}-${new Date().toISOString().slice(0, 10)}`;
      return input.format === 'csv'
        ? { filename: `${name}.csv`, contentType: 'text/csv; charset=utf-8', content: auditCsv(events), count: events.length, truncated }
        : { filename: `${name}.json`, contentType: 'application/json', content: `${JSON.stringify(events, null, 2)}\n`, count: events.length, truncated };
    }),
});
