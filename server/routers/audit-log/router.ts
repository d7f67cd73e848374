import { auditLogListInput, auditLogListOutput } from '../../../shared/schemas/audit-log';
import { router, scopeProcedure } from '../../trpc/init';

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
      const page = await ctx.deps.backoffice.auditLog(ctx.call, ctx.scope, {
        page_token: input.pageToken,
        actor_id: input.actorId,
        action: input.action,
        project_id: input.forProjectId,
        from: input.from,
        to: input.to,
      });
      return { events: page.events, nextPageToken: page.next_page_token || null };
    }),
});
