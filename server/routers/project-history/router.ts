import {
  historyListInput,
  historyListOutput,
  historyRestoreInput,
  historyRestoreOutput,
  historyRevisionInput,
  historyRevisionOutput,
} from '../../../shared/schemas/project-history';
import { projectProcedure, router } from '../../trpc/init';
import { configChanges } from './changes';

/**
 * The history of a project's configuration: every revision with who wrote it and when, what each changed
 * (a readable diff against the one before), and restoring any of them as a new revision, refused with
 * CONFLICT when the configuration changed since the user looked.
 */
export const projectHistoryRouter = router({
  list: projectProcedure('backoffice.project.read')
    .input(historyListInput)
    .output(historyListOutput)
    .query(async ({ ctx, input }) => {
      const page = await ctx.deps.backoffice.projectHistory.list(ctx.call, ctx.projectId, input.pageToken);
      return { revisions: page.revisions, nextPageToken: page.next_page_token || null };
    }),

  get: projectProcedure('backoffice.project.read')
    .input(historyRevisionInput)
    .output(historyRevisionOutput)
    .query(async ({ ctx, input }) => {
      const detail = await ctx.deps.backoffice.projectHistory.get(ctx.call, ctx.projectId, input.revisionId);
      return { revision: detail.revision, ...configChanges(detail.previous?.document ?? {}, detail.document) };
    }),

  restore: projectProcedure('backoffice.project.write')
    .input(historyRestoreInput)
    .output(historyRestoreOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.projectHistory.restore(ctx.call, ctx.projectId, input.revisionId, input.currentRevisionId);
      const project = await ctx.deps.backoffice.getProject(ctx.call, ctx.projectId);
      return { revisionId: project.revision_id };
    }),
});
