import { TRPCError } from '@trpc/server';
import { CONFIRM_NAME_MISMATCH, confirmsName } from '../../shared/domain/typed-confirmation';
import { MESSAGES } from '../../shared/messages';
import {
  createProjectInput,
  deleteProjectInput,
  projectIdInput,
  setActiveProjectInput,
  setProjectEnvironmentInput,
  updateProjectInput,
  type NormalizedProject,
} from '../../shared/schemas/project';
import { checkAccess, forgetAccess } from '../trpc/access';
import { authedProcedure, projectProcedure, router } from '../trpc/init';

export const projectsRouter = router({
  list: authedProcedure.query(({ ctx }) => ctx.deps.backoffice.listProjects(ctx.call)),

  get: projectProcedure.input(projectIdInput).query(({ ctx, input }) => ctx.deps.backoffice.getNormalizedProject(ctx.call, input.projectId)),

  create: authedProcedure.input(createProjectInput).mutation(async ({ ctx, input }) => {
    if (input.workspaceId) {
      const access = await checkAccess(ctx, 'workspace', input.workspaceId, ['backoffice.workspace.write']);
      if (!access['backoffice.workspace.write']) {
        throw new TRPCError({ code: 'FORBIDDEN', message: "You can't create projects in this workspace." });
      }
    }
    return ctx.deps.backoffice.createNormalizedProject(ctx.call, {
      name: input.name,
      environment: input.environment,
      ...(input.workspaceId ? { workspace_id: input.workspaceId } : {}),
    });
  }),

  /**
   * Renames with a JSON patch on the revision the edit started from (else the current one), so every
   * other revision field survives; an edit based on an older revision answers CONFLICT (stale revision).
   */
  update: projectProcedure.input(updateProjectInput).mutation(async ({ ctx, input }): Promise<NormalizedProject> => {
    const { backoffice } = ctx.deps;
    const current = input.revisionId ? undefined : await backoffice.getNormalizedProject(ctx.call, input.projectId);
    const revisionId = input.revisionId ?? current?.current_revision.id;
    if (!revisionId) throw new TRPCError({ code: 'BAD_GATEWAY', message: 'The project has no revision to update.' });
    return backoffice.patchNormalizedProjectRevision(ctx.call, input.projectId, revisionId, [
      { op: 'replace', path: '/name', value: input.name },
    ]);
  }),

  setEnvironment: projectProcedure.input(setProjectEnvironmentInput).mutation(async ({ ctx, input }) => {
    await ctx.deps.backoffice.setProjectEnvironment(ctx.call, input.projectId, input.environment);
    return ctx.deps.backoffice.getNormalizedProject(ctx.call, input.projectId);
  }),

  /** Deletes only when the typed confirmation equals the project's current name. */
  delete: projectProcedure.input(deleteProjectInput).mutation(async ({ ctx, input }) => {
    const current = await ctx.deps.backoffice.getNormalizedProject(ctx.call, input.projectId);
    if (!confirmsName(input.confirmName, current.current_revision.name)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: CONFIRM_NAME_MISMATCH });
    }
    await ctx.deps.backoffice.purgeProject(ctx.call, input.projectId);
    forgetAccess(ctx, 'project', input.projectId);
    return { ok: true as const };
  }),

  getActive: authedProcedure.query(async ({ ctx }) => {
    const answer = await ctx.deps.backoffice.getActiveProject(ctx.call);
    if (!answer.project_id) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGES.noActiveProject });
    return { projectId: answer.project_id };
  }),

  setActive: projectProcedure.input(setActiveProjectInput).mutation(async ({ ctx, input }) => {
    const answer = await ctx.deps.backoffice.setActiveProject(ctx.call, input.projectId);
    return { projectId: answer.project_id ?? input.projectId };
  }),

  members: projectProcedure.input(projectIdInput).query(({ ctx, input }) => ctx.deps.backoffice.listProjectMembers(ctx.call, input.projectId)),
});
