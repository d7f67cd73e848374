import { and, eq, ne } from 'drizzle-orm';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LocalStackContext } from './context';
import { projectRevisions, projects, type ProjectRow } from './tables';
import type { Queryable } from './queryable';
import { OryError } from './errors';
import { forwardedBase } from './http';
import { SESSION_COOKIE } from './session-token';
import { CONSOLE_NID } from './tenant-id';
import { createAuthorizationCache } from './authz-cache';
import { sessionCookieSettingsOf, type SessionCookieSettings } from './identity-settings';
import { configAt, type JsonObject } from './tenant-config';

export { CONSOLE_NID } from './tenant-id';

/** Where a project's API (its identity service, admin API, …) lives under the local stack. */
export const PROJECT_API_PREFIX = '/project-api/:slug';

/** The path of a project's API under the local stack: `/project-api/{slug}`. */
export const projectApiPath = (slug: string) => `/project-api/${encodeURIComponent(slug)}`;

/** A project tenant's session cookie, as Ory Network names it: `ory_session_` and the slug without dashes. */
export const projectSessionCookie = (slug: string) => `ory_session_${slug.replace(/[^A-Za-z0-9]/g, '')}`;

/** The identity service a request talks to: the console's own tenant or a project's. */
export interface Tenant {
  /** Kratos' network id: every identity row of this tenant carries it. */
  nid: string;
  /** The project whose API this is; null for the console's own tenant. */
  project: ProjectRow | null;
  /** The tenant's public base URL as the client sees it (flows' ui.action, schema_url, logout URLs point here). */
  base: string;
  /** The path of `base`, to scope cookies to this tenant ('/' for the console's own). */
  cookiePath: string;
  /** The domain cookies are set for, when a custom domain names one (otherwise the request's host). */
  cookieDomain?: string;
  /** Where browser flows send people: the console for its own tenant, `${base}/ui` for a project. */
  uiUrl: string;
  /** The session cookie's name (a project's `session.cookie.name` when it set one). */
  sessionCookie: string;
  /** A project's `session.cookie.*` (domain, SameSite, persistence); the console's own tenant has none. */
  sessionCookieSettings?: SessionCookieSettings;
  /** The request's path below the tenant's base (`/self-service/login/browser`, …). */
  path: string;
}

const tenants = new WeakMap<FastifyRequest, Tenant>();

/** The tenant a request was resolved to by `useConsoleTenant` or `useProjectTenant` on its scope. */
export function tenantOf(req: FastifyRequest): Tenant {
  const tenant = tenants.get(req);
  if (!tenant) throw new Error(`no tenant resolved for ${req.method} ${req.routeOptions.url ?? ''}`);
  return tenant;
}

/** The tenant of a request if it was resolved (error handlers of requests refused before that see none). */
export const maybeTenantOf = (req: FastifyRequest): Tenant | undefined => tenants.get(req);

/** The console's own tenant, at the root of the local stack. */
export function consoleTenant(ctx: LocalStackContext, req: FastifyRequest): Tenant {
  const base = forwardedBase(req) ?? ctx.publicUrl().replace(/\/+$/, '');
  return {
    nid: CONSOLE_NID,
    project: null,
    base,
    cookiePath: '/',
    uiUrl: ctx.uiUrl,
    sessionCookie: SESSION_COOKIE,
    path: req.url,
  };
}

/** A project's tenant by slug (halted projects keep their identities; deleted ones are gone), or null. */
export async function findProjectBySlug(q: Queryable, slug: string): Promise<ProjectRow | null> {
  const [row] = await q.orm
    .select()
    .from(projects)
    .where(and(eq(projects.slug, slug), ne(projects.state, 'deleted')));
  return row ?? null;
}

/** Projects by slug for the tenant of every project API call (see authz-cache.ts). */
const projectsBySlug = createAuthorizationCache<ProjectRow>(1000);

/**
 * A project's session cookie settings by revision id: a revision never changes, and every call to the project's
 * API needs them to find its session, so they are read once per revision.
 */
const cookieSettingsByRevision = createAuthorizationCache<SessionCookieSettings>(1000);

async function revisionCookieSettings(q: Queryable, revisionId: string): Promise<SessionCookieSettings> {
  const [row] = await q.orm.select({ services: projectRevisions.services }).from(projectRevisions).where(eq(projectRevisions.id, revisionId));
  const config = configAt((row?.services ?? {}) as JsonObject, 'identity', 'config');
  return sessionCookieSettingsOf(config && typeof config === 'object' && !Array.isArray(config) ? (config as JsonObject) : {});
}

export const projectNotFound = (slug: string) =>
  new OryError(404, { reason: `No project with the slug "${slug}" exists. Check the project's API URL.` });

/** A request that reached a project's API on one of its custom domains: its origin there and the domain's cookie domain. */
export interface CustomHost {
  base: string;
  cookieDomain: string;
}

const customHosts = new WeakMap<IncomingMessage, CustomHost>();

/** Marks a request (its URL already rewritten to the project's API path) as served on a custom domain. */
export const servedOnCustomHost = (raw: IncomingMessage, host: CustomHost): void => void customHosts.set(raw, host);

/** Resolves the project tenant of a request under PROJECT_API_PREFIX; throws Ory's 404 for an unknown slug. */
export async function projectTenant(ctx: LocalStackContext, req: FastifyRequest): Promise<Tenant> {
  const slug = (req.params as { slug?: string }).slug ?? '';
  const project = /^[a-z0-9-]{1,64}$/.test(slug) ? await projectsBySlug.get(ctx.db, slug, () => findProjectBySlug(ctx.db, slug)) : null;
  if (!project) throw projectNotFound(slug);
  const apiPath = projectApiPath(project.slug);
  const forwarded = forwardedBase(req);
  const custom = customHosts.get(req.raw);
  const base = forwarded ?? custom?.base ?? `${ctx.publicUrl().replace(/\/+$/, '')}${apiPath}`;
  const cookie = await cookieSettingsByRevision.get(ctx.db, project.current_revision_id, () => revisionCookieSettings(ctx.db, project.current_revision_id));
  return {
    nid: project.id,
    project,
    base,
    cookiePath: new URL(base).pathname.replace(/\/+$/, '') || '/',
    ...(custom?.cookieDomain ? { cookieDomain: custom.cookieDomain } : {}),
    uiUrl: `${base}/ui`,
    sessionCookie: cookie?.name ?? projectSessionCookie(project.slug),
    ...(cookie ? { sessionCookieSettings: cookie } : {}),
    path: req.url.replace(/^\/project-api\/[^/?]*/, '') || '/',
  };
}

/** Resolves every request of `scope` to the console's own tenant. */
export function useConsoleTenant(scope: FastifyInstance, ctx: LocalStackContext): void {
  scope.addHook('onRequest', async (req) => {
    tenants.set(req, consoleTenant(ctx, req));
  });
}

/**
 * Resolves every request of `scope` (registered with `{ prefix: PROJECT_API_PREFIX }`) to the project
 * its `:slug` names; an unknown slug is answered Ory's 404 before any handler runs. Handlers read it
 * with `tenantOf(req)`:
 *
 *   await app.register(async (scope) => {
 *     useProjectTenant(scope, ctx);
 *     scope.get('/admin/identities', async (req) => list(ctx.db, tenantOf(req).nid));
 *   }, { prefix: PROJECT_API_PREFIX });
 */
export function useProjectTenant(scope: FastifyInstance, ctx: LocalStackContext): void {
  scope.addHook('onRequest', async (req) => {
    tenants.set(req, await projectTenant(ctx, req));
  });
}
