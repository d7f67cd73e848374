import type { IdentitySchemaContainer } from '@ory/client';
import type { Context } from '../../trpc/context';
import type { ProjectApis } from '../../upstream/project-apis';

/**
 * The project's active identity schemas, from its data plane. The procedures of one request that need them
 * (the identities page asks `identities.schemas` and `schemas.list` together, in one batch and in its first
 * answers) share one call; another request asks again.
 */
export function activeSchemas(ctx: Pick<Context, 'deps' | 'requestId'> & { projectId: string; apis: ProjectApis }): Promise<IdentitySchemaContainer[]> {
  return ctx.deps.caches.inFlight.run(`${ctx.requestId}|active-schemas|${ctx.projectId}`, async () => (await ctx.apis.identity.listIdentitySchemas()).data);
}
