import { UpstreamError } from '../upstream/errors';
import type { ProjectApis } from '../upstream/project-apis';
import type { Context } from './context';

/**
 * Typed `@ory/client` clients for one project's data plane (IdentityApi, OAuth2Api, RelationshipApi,
 * PermissionApi, CourierApi), at the URL built from PROJECT_API_URL and the project's slug. The slug is
 * looked up on the control plane with the caller's cookie (so a project the caller cannot read has none)
 * and kept a few seconds per instance and session. Every call carries the request's deadline.
 */
export async function projectApis(ctx: Context, projectId: string): Promise<ProjectApis> {
  const { projectApis: factory, config } = ctx.deps;
  if (!factory) {
    throw new UpstreamError(502, 'The project API is not configured', undefined, { kind: 'network', upstream: 'project-api', detail: 'PROJECT_API_URL is not set' });
  }
  const slug = await projectSlug(ctx, projectId);
  const signal = ctx.call.signal ?? AbortSignal.timeout(config.upstreamTimeoutMs);
  return factory(slug, { cookie: ctx.call.cookie, requestId: ctx.requestId, signal });
}

/** The project's slug, looked up with the caller's cookie and kept a few seconds per instance and session. */
export async function projectSlug(ctx: Context, projectId: string): Promise<string> {
  const { caches, backoffice } = ctx.deps;
  const key = ctx.sessionKey ? `${ctx.sessionKey}|${projectId}` : undefined;
  let slug = key ? caches.slugs.get(key) : undefined;
  if (!slug) {
    slug = (await backoffice.getProject(ctx.call, projectId)).slug;
    if (key) caches.slugs.set(key, slug);
  }
  return slug;
}
