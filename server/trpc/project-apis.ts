import { UpstreamError } from '../upstream/errors';
import type { ProjectApis } from '../upstream/project-apis';
import type { Caches } from '../deps';
import type { Context } from './context';

/**
 * Typed `@ory/client` clients for one project's data plane (IdentityApi, OAuth2Api, RelationshipApi,
 * PermissionApi, CourierApi), at the URL built from PROJECT_API_URL and the project's slug. The slug is
 * looked up on the control plane with the caller's cookie (so a project the caller cannot read has none)
 * and kept a few seconds per instance and session; reading the project primes it (rememberSlug). Every
 * call carries the request's deadline.
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
  const key = slugKey(ctx.sessionKey, projectId);
  // A miss reads the project, which records its slug (see rememberSlug); concurrent misses share one read.
  return (key ? caches.slugs.get(key) : undefined) ?? (await caches.inFlight.run(key && `${key}|slug`, () => backoffice.getProject(ctx.call, projectId))).slug;
}

const slugKey = (sessionKey: string | undefined, projectId: string) => (sessionKey ? `${sessionKey}|${projectId}` : undefined);

/**
 * Records the slug of a project read with the caller's cookie (projects.get, projects.create, a data-plane
 * miss), so the caller's next data-plane call does not ask the control plane for it again. Only for that
 * session: another caller still proves with their own cookie that they may read the project.
 */
export function rememberSlug(caches: Caches, sessionKey: string | undefined, project: { id: string; slug: string }): void {
  const key = slugKey(sessionKey, project.id);
  if (key) caches.slugs.set(key, project.slug);
}
