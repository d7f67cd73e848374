import { TRPCError } from '@trpc/server';
import { EXPORT_FORMAT, fillSecrets, redactedSecretPaths, redactSecrets } from '../../../shared/domain/config-export';
import {
  historyExportInput,
  historyExportOutput,
  historyImportInput,
  historyImportOutput,
  historyListInput,
  historyListOutput,
  historyRestoreInput,
  historyRestoreOutput,
  historyRevisionInput,
  historyRevisionOutput,
} from '../../../shared/schemas/project-history';
import { projectProcedure, router } from '../../trpc/init';
import { exportBundle, importBundle } from './bundle';
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

  /** The current configuration as a file: name and services, every secret redacted and named by its place. */
  export: projectProcedure('backoffice.project.read')
    .input(historyExportInput)
    .output(historyExportOutput)
    .query(async ({ ctx }) => {
      const project = await ctx.deps.backoffice.getProject(ctx.call, ctx.projectId);
      const services = redactSecrets(project.services as Record<string, unknown>);
      return { format: EXPORT_FORMAT, version: 1 as const, exported_at: new Date().toISOString(), name: project.name, services, secrets: redactedSecretPaths(services) };
    }),

  /**
   * An exported file as the project's next revision: refused with CONFLICT when the configuration changed since
   * the user looked, and with BAD_REQUEST naming each redacted secret not given again (nothing is written then).
   */
  import: projectProcedure('backoffice.project.write')
    .input(historyImportInput)
    .output(historyImportOutput)
    .mutation(async ({ ctx, input }) => {
      const { filled, missing } = fillSecrets(input.file.services, input.secrets ?? {});
      if (missing.length > 0) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: `Give the secret the export left out at ${missing.join(', ')}.` });
      }
      await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, ctx.projectId, input.currentRevisionId, [
        { op: 'replace', path: '/name', value: input.file.name },
        { op: 'replace', path: '/services', value: filled },
      ]);
      const project = await ctx.deps.backoffice.getProject(ctx.call, ctx.projectId);
      return { revisionId: project.revision_id };
    }),

  /** The whole project as one file (format `ory-console-project`): configuration, schemas, themes, clients, relationships, identities if asked. */
  exportBundle,
  /** A project file into a new or empty project: checked first, undone when a part fails (see bundle.ts). */
  importBundle,
});
