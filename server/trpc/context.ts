import { randomUUID } from 'node:crypto';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { Logger } from 'pino';
import type { Session } from '../../shared/schemas/session';
import type { AppDeps } from '../deps';
import type { CallContext } from '../upstream/backoffice';
import { UpstreamError } from '../upstream/errors';
import { rememberSlug } from './project-apis';
import { sessionKey } from './ttl-cache';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export interface Context {
  deps: AppDeps;
  requestId: string;
  log: Logger;
  /** Forwarded with every upstream call (only the session cookies leave the BFF). */
  call: CallContext;
  /** Hash of the session cookie(s); undefined when the request has none. */
  sessionKey: string | undefined;
  /** The caller's session, looked up at most once per request (null: signed out). */
  getSession(): Promise<Session | null>;
  /** The request's `Idempotency-Key` header as sent (checked by the mutations that use it, `trpc/init.ts`). */
  idempotencyKey: string | undefined;
}

export interface InnerContextOptions {
  deps: AppDeps;
  cookie?: string | undefined;
  requestId?: string | undefined;
  log?: Logger | undefined;
  idempotencyKey?: string | undefined;
}

export function createInnerContext(opts: InnerContextOptions): Context {
  const requestId = opts.requestId ?? randomUUID();
  const log = opts.log ?? opts.deps.logger.child({ reqId: requestId });
  const key = sessionKey(opts.cookie);
  const call: CallContext = { cookie: opts.cookie, requestId, log, onProject: (project) => rememberSlug(opts.deps.caches, key, project) };
  let memo: Promise<Session | null> | undefined;
  return {
    deps: opts.deps,
    requestId,
    log,
    call,
    sessionKey: key,
    idempotencyKey: opts.idempotencyKey,
    getSession: () => (memo ??= lookUpSession(opts.deps, call, key)),
  };
}

/** whoami through a short per-instance cache keyed by the session cookie's hash; 401 means signed out. */
function lookUpSession(deps: AppDeps, call: CallContext, key: string | undefined): Promise<Session | null> {
  if (!key) return Promise.resolve(null);
  const cached = deps.caches.sessions.get(key);
  if (cached) return cached;
  const pending = deps.ory.toSession(call).then(
    (session) => (session.active === false ? null : session),
    (error: unknown) => {
      if (error instanceof UpstreamError && error.status === 401 && error.kind === 'http') return null;
      deps.caches.sessions.delete(key);
      throw error;
    },
  );
  deps.caches.sessions.set(key, pending);
  return pending;
}

export function createContext({ req }: CreateFastifyContextOptions): Context {
  const key = req.headers['idempotency-key'];
  return createInnerContext({
    deps: req.server.deps,
    cookie: req.headers.cookie,
    requestId: String(req.id),
    log: req.log as unknown as Logger,
    idempotencyKey: Array.isArray(key) ? key.join(',') : key,
  });
}
