import type { SetProject } from '@ory/client';
import { TRPCError } from '@trpc/server';
import {
  createPlainProjectInput,
  normalizedProjectSchema,
  patchProjectInput,
  projectIdInput,
  projectSchema,
  projectUpdateOutput,
  replaceNormalizedProjectInput,
  replaceProjectInput,
} from '../../../shared/schemas/project';
import { checkAccess, deniedMessage } from '../../trpc/access';
import { authedProcedure, projectProcedure } from '../../trpc/init';

/** Fields of a normalized revision the control plane sets itself; an edit sends them back but they are not the caller's to change. */
const READ_ONLY_REVISION_FIELDS = ['id', 'project_id', 'created_at', 'updated_at'];

const stale = () =>
  new TRPCError({ code: 'CONFLICT', message: 'The project was changed elsewhere since you opened it. Reload to see the current configuration, then make your change again.' });

/**
 * Creates a project and answers its full configuration (ProjectApi.createProject), in a workspace the caller
 * may change when one is named. `projects.create` answers the normalized form instead.
 */
export const createPlain = authedProcedure
  .input(createPlainProjectInput)
  .output(projectSchema)
  .mutation(async ({ ctx, input }) => {
    if (input.workspaceId) {
      const access = await checkAccess(ctx, 'workspace', input.workspaceId, ['backoffice.workspace.write']);
      if (!access['backoffice.workspace.write']) {
        throw new TRPCError({ code: 'FORBIDDEN', message: deniedMessage('workspace', 'backoffice.workspace.write') });
      }
    }
    return ctx.deps.backoffice.createProject(ctx.call, {
      name: input.name,
      environment: input.environment,
      ...(input.workspaceId ? { workspace_id: input.workspaceId } : {}),
    });
  });

/** The project's whole configuration (name, services, CORS) and its revision, as `replace` takes it back. */
export const configuration = projectProcedure('backoffice.project.read')
  .input(projectIdInput)
  .output(projectSchema)
  .query(({ ctx }) => ctx.deps.backoffice.getProject(ctx.call, ctx.projectId));

/**
 * Replaces the whole configuration (ProjectApi.setProject) with the one the caller edited from `revisionId`;
 * a change made elsewhere since then answers CONFLICT rather than being overwritten.
 */
export const replace = projectProcedure('backoffice.project.write')
  .input(replaceProjectInput)
  .output(projectUpdateOutput)
  .mutation(async ({ ctx, input }) => {
    const current = await ctx.deps.backoffice.getProject(ctx.call, ctx.projectId);
    if (input.revisionId && current.revision_id !== input.revisionId) throw stale();
    const body = {
      ...input.configuration,
      // Omitted CORS settings and organizations keep what the project has.
      cors_admin: input.configuration.cors_admin ?? current.cors_admin,
      cors_public: input.configuration.cors_public ?? current.cors_public,
      organizations: current.organizations ?? [],
    } as SetProject;
    return ctx.deps.backoffice.setProject(ctx.call, ctx.projectId, body);
  });

/** Applies a JSON patch to the current configuration (ProjectApi.patchProject): only the paths it names change. */
export const patch = projectProcedure('backoffice.project.write')
  .input(patchProjectInput)
  .output(projectUpdateOutput)
  .mutation(({ ctx, input }) => ctx.deps.backoffice.patchProject(ctx.call, ctx.projectId, input.patch));

/**
 * Replaces the current normalized revision (PUT /normalized/projects/{id}) with the flat fields the caller
 * edited from `revisionId` (a stale one answers CONFLICT); read-only fields are not sent.
 */
export const replaceNormalized = projectProcedure('backoffice.project.write')
  .input(replaceNormalizedProjectInput)
  .output(normalizedProjectSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await ctx.deps.backoffice.getNormalizedProject(ctx.call, ctx.projectId);
    if (input.revisionId && current.current_revision.id !== input.revisionId) throw stale();
    const revision = Object.fromEntries(Object.entries(input.revision).filter(([key]) => !READ_ONLY_REVISION_FIELDS.includes(key)));
    return ctx.deps.backoffice.replaceNormalizedProject(ctx.call, ctx.projectId, revision);
  });
