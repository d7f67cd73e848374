import type { Logger } from 'pino';
import type { Session } from '../shared/schemas/session';
import type { Config } from './config';
import { InFlight, TtlCache, sessionKey } from './trpc/ttl-cache';
import { createBackofficeClient, type BackofficeClient } from './upstream/backoffice';
import { createOryClient, type OryClient } from './upstream/ory';
import { createProjectApiFactory, type ProjectApiFactory } from './upstream/project-apis';
import type { FirstPaint } from './static-client';

/** How long a session look-up and a permission answer are reused by one BFF instance. */
export const SESSION_CACHE_TTL_MS = 5_000;
export const ACCESS_CACHE_TTL_MS = 5_000;

export interface Caches {
  /** session key → the session look-up (null: signed out). Promises, so concurrent calls share one look-up. */
  sessions: TtlCache<Promise<Session | null>>;
  /** `${sessionKey}|${kind}|${id}` → permission name → allowed. */
  access: TtlCache<Record<string, boolean>>;
  /** `${sessionKey}|${projectId}` → the project's slug (where its data plane lives). */
  slugs: TtlCache<string>;
  /** Permission and slug look-ups under way (`${sessionKey}|…` keys), shared by concurrent callers. */
  inFlight: InFlight;
}

export interface AppDeps {
  config: Config;
  logger: Logger;
  backoffice: BackofficeClient;
  ory: OryClient;
  /** Clients for a project's data plane; undefined when PROJECT_API_URL is not known. */
  projectApis: ProjectApiFactory | undefined;
  caches: Caches;
  /** Directory of the built client (index.html + assets); default client/dist. */
  staticDir?: string;
  /**
   * The server's first paint of signed-in pages (server/static-client.ts); by default the build's renderer
   * beside `staticDir` (client/dist-ssr) when there is one; null for none.
   */
  firstPaint?: FirstPaint | null;
}

export function createCaches(ttl: { sessionMs?: number; accessMs?: number } = {}): Caches {
  return {
    sessions: new TtlCache(ttl.sessionMs ?? SESSION_CACHE_TTL_MS),
    access: new TtlCache(ttl.accessMs ?? ACCESS_CACHE_TTL_MS),
    slugs: new TtlCache(ttl.accessMs ?? ACCESS_CACHE_TTL_MS),
    inFlight: new InFlight((ttl.accessMs ?? ACCESS_CACHE_TTL_MS) > 0),
  };
}

/** Forgets everything cached for a session (after logout). */
export function evictSession(caches: Caches, cookie: string | undefined): void {
  const key = sessionKey(cookie);
  if (!key) return;
  caches.sessions.delete(key);
  caches.access.deletePrefix(`${key}|`);
  caches.slugs.deletePrefix(`${key}|`);
  caches.inFlight.deletePrefix(`${key}|`);
}

export interface UpstreamUrls {
  backofficeUrl: string;
  orySdkUrl: string;
}

/** Builds the upstream clients for a config whose upstream URLs are known. */
export function createDeps(config: Config, logger: Logger, overrides: Partial<AppDeps> = {}): AppDeps {
  const backofficeUrl = config.backofficeUrl;
  const orySdkUrl = config.orySdkUrl;
  if (!backofficeUrl || !orySdkUrl) throw new Error('createDeps: BACKOFFICE_URL and ORY_SDK_URL must be known');
  return {
    config,
    logger,
    backoffice: createBackofficeClient({ baseUrl: backofficeUrl, timeoutMs: config.upstreamTimeoutMs }),
    ory: createOryClient({ basePath: orySdkUrl, timeoutMs: config.upstreamTimeoutMs }),
    projectApis: config.projectApiUrl ? createProjectApiFactory({ template: config.projectApiUrl, timeoutMs: config.upstreamTimeoutMs }) : undefined,
    caches: createCaches(),
    ...overrides,
  };
}
