import { gaugeOnScrape } from '../shared/metrics';
import { closeRedis, connectRedis } from '../shared/redis';
import { registerTracing, traceLogFields, tracingOptions } from '../shared/telemetry';
import cookie from '@fastify/cookie';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import { createClock, type Clock } from './kernel/clock';
import { startCourier, type Courier } from './courier/delivery';
import { startEventStreamWorker, type EventStreamWorker } from './event-stream/delivery';
import { startMailbox, type LocalMailbox } from './courier/mailbox';
import type { LocalStackContext } from './kernel/context';
import { registerControlPlane } from './control-plane';
import { openDb } from './db/index';
import type { Db } from './db/types';
import { PUBLIC_API_ERRORS, registerIdentity } from './public-api';
import { DATABASE_RETRY_AFTER_SECONDS } from './kernel/db-errors';
import { installErrorHandler } from './kernel/errors';
import { DEFAULT_HASH_OPTIONS, type HashOptions } from './identity/password';
import { registerIdentityAdmin } from './admin-api';
import { registerOAuth2 } from './oauth2/routes';
import { registerHostedPages } from './hosted/routes';
import { activeTheme } from './branding/service';
import { registerPermissionApi } from './permission/routes';
import type { RateLimitOptions } from './self-service/rate-limit';
import { resolveSession } from './session/token';
import { REQUEST_TIMEOUT_MS, requestTimeoutOptions } from '../shared/request-timeout';
import { errorBody } from '../shared/ory-error';
import { maskUrl, REDACT_PATHS, REDACTED } from '../shared/redact';
import { findMalformedText } from '../shared/text-input';
import { createCnameLookup, startLocalDns, type LocalDns } from './kernel/dns';
import { createHostRouter, routeHostsOn } from './custom-domain/host-routing';

export interface LocalStackOptions {
  /** 0 = a random free port. Default 4455. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (tests pass a fresh random one). */
  dbSchema?: string;
  /**
   * An open database with every migration applied, used instead of opening one from the options above (a test
   * suite lends one it emptied); the stack closes it when it closes.
   */
  database?: Db;
  /** The console's origin, for browser redirects and allowed return_to. */
  uiUrl?: string;
  flowLifespanMs?: number;
  sessionLifespanMs?: number;
  /** Argon2id cost (tests lower it; the default is memory-hard). */
  passwordHash?: HashOptions;
  /** Limits on login, registration, recovery and verification submissions (defaults: DEFAULT_RATE_LIMITS). */
  rateLimits?: RateLimitOptions;
  /** Keep the rate-limit counters in this Redis, shared by every stack instance on it (`REDIS_URL`). */
  redisUrl?: string;
  /**
   * Serve the local mailbox at /local/mailbox (loopback clients only). It holds every user's recovery
   * and verification codes, so it is a development setting. Default false.
   */
  mailbox?: boolean;
  /** The port of the local mailbox's SMTP server (on 127.0.0.1) when `mailbox` is on. Default 0: a free port. */
  mailboxSmtpPort?: number;
  logger?: Logger;
  /** Time a client has to send its whole request before it is answered 408. Default 30000. */
  requestTimeoutMs?: number;
  /** The stack's clock (default: real time); a test keeps it to move time forward instead of waiting. */
  clock?: Clock;
  /**
   * How often the courier looks for queued messages, in ms (default 500). Reading the mailbox and
   * `LocalStack.courier.flush()` deliver at once whatever the interval.
   */
  courierPollMs?: number;
  /** How long a courier message claimed by an instance that died mid-dispatch waits to be sent by another (default 60 s; see CourierOptions). */
  courierClaimTimeoutMs?: number;
  /**
   * DNS servers custom domains are looked up in ("1.1.1.1", "127.0.0.1:5353"). Without them the stack runs
   * its own local DNS server on loopback, whose records `/local/dns` sets (a development tool).
   */
  dnsServers?: string[];
  /** The UDP port of the local DNS server (on 127.0.0.1). Default 0: a free port. */
  localDnsPort?: number;
  /** Sees every answer as it is sent (the integration suite checks each against Ory's OpenAPI). */
  onAnswer?: (req: FastifyRequest, reply: FastifyReply, payload: unknown) => void;
}

export interface LocalStack {
  url: string;
  db: Db;
  /** Where the local mailbox takes mail over SMTP, when it runs. */
  mailboxSmtp: { host: string; port: number } | null;
  /** The clock every part of the stack reads: `clock.advance(ms)` lets time pass at once. */
  clock: Clock;
  /** The courier's worker: `flush()` runs one delivery pass now, so a test never waits for the next poll. */
  courier: Pick<Courier, 'flush'>;
  /** The event streams' worker: `flush()` attempts every delivery due on the stack's clock now. */
  eventStreams: Pick<EventStreamWorker, 'flush' | 'prune'>;
  /** The local DNS server custom domains are looked up in, unless DNS servers were given. */
  localDns: Pick<LocalDns, 'address' | 'set' | 'delete'> | null;
  /**
   * Stops the stack: requests in flight finish, then the workers and the database close. With `graceMs`,
   * connections still open after that long are cut (tests use it, so that a request nobody awaits cannot hold
   * a suite's teardown), and the requests still in flight are logged by method and path.
   */
  close(options?: { graceMs?: number; onCut?: (inFlight: string[]) => void }): Promise<void>;
}

const REDACT = { paths: REDACT_PATHS, censor: REDACTED };

function makeLogger(opts: LocalStackOptions): Logger {
  const serializers = {
    req: (req: { method?: string; url?: string; id?: string }) => ({ method: req.method, url: maskUrl(req.url ?? ''), id: req.id }),
  };
  if (opts.logger) return opts.logger.child({ component: 'localstack' }, { redact: REDACT, serializers });
  return pino({ level: process.env.LOG_LEVEL ?? 'info', redact: REDACT, serializers, base: { component: 'localstack' }, mixin: traceLogFields });
}

/** The queues and the pool, read when the metrics port is scraped (shared/metrics.ts). */
function observeOnScrape(db: Db): void {
  gaugeOnScrape('localstack_courier_queued_messages', 'Courier messages waiting to be sent', async () => {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM courier_messages WHERE status = 'queued'`);
    return row?.n ?? 0;
  });
  gaugeOnScrape('localstack_event_stream_pending_deliveries', 'Event-stream deliveries waiting for their first or next attempt', async () => {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_stream_deliveries WHERE status = 'pending'`);
    return row?.n ?? 0;
  });
  const { poolStats } = db;
  if (poolStats) gaugeOnScrape('localstack_db_pool_connections', 'PostgreSQL pool connections by state (total, idle, waiting clients)', async () => poolStats(), 'state');
}

function formatHost(host: string): string {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return h.includes(':') ? `[${h}]` : h;
}

/** Starts the embedded local stack: identity provider and control plane on one HTTP server. */
export async function startLocalStack(opts: LocalStackOptions = {}): Promise<LocalStack> {
  const log = makeLogger(opts);
  const db = opts.database ?? (await openDb({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl, schema: opts.dbSchema }));
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    trustProxy: false,
    routerOptions: { maxParamLength: 2048 },
    ...requestTimeoutOptions(opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
    // With tracing on, the request lines are written inside each request's trace (shared/telemetry.ts).
    ...tracingOptions(),
  });
  await registerTracing(app, 'localstack');
  // Custom domains: the Host decides which project's API a request reaches, before Fastify routes it.
  routeHostsOn(app.server, createHostRouter(db, log));
  // Requests being answered, by method and path: named when a close has to cut them.
  const inFlight = new Map<string, string>();
  app.addHook('onRequest', async (req) => {
    inFlight.set(req.id, `${req.method} ${maskUrl(req.url).split('?')[0]}`);
  });
  app.addHook('onResponse', async (req) => {
    inFlight.delete(req.id);
  });
  app.addHook('onRequestAbort', async (req) => {
    inFlight.delete(req.id);
  });
  const host = opts.host ?? '127.0.0.1';
  let url = '';
  let mailbox: LocalMailbox | null = null;
  let localDns: LocalDns | null = null;
  try {
    mailbox = opts.mailbox === true ? await startMailbox({ port: opts.mailboxSmtpPort ?? 0, log }) : null;
    localDns = opts.dnsServers?.length ? null : await startLocalDns({ port: opts.localDnsPort ?? 0, log });
  } catch (err) {
    await mailbox?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
  const dns = createCnameLookup(localDns ? [localDns.address] : (opts.dnsServers ?? []));
  const clock = opts.clock ?? createClock();
  observeOnScrape(db);
  const courier = startCourier(db, log, { mailbox, now: () => clock.now(), ...(opts.courierPollMs ? { pollMs: opts.courierPollMs } : {}), ...(opts.courierClaimTimeoutMs ? { claimTimeoutMs: opts.courierClaimTimeoutMs } : {}) });
  const streams = startEventStreamWorker(db, log, { now: () => clock.now() });
  try {
    const ctx: LocalStackContext = {
      db,
      log,
      uiUrl: (opts.uiUrl ?? 'http://localhost:3000').replace(/\/+$/, ''),
      publicUrl: () => url,
      resolveSession: (req) => resolveSession(db, req, clock.now()),
      clock,
      courier,
      mailbox,
      dns,
      localDns,
    };
    await setUp(app, ctx, opts);
    await app.listen({ port: opts.port ?? 4455, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? 4455);
    url = `http://${formatHost(host)}:${port}`;
    log.info({ url }, 'local stack listening');
    if (mailbox) log.info({ smtp: `${mailbox.host}:${mailbox.port}`, mailbox: `${url}/local/mailbox` }, `local mailbox takes mail over SMTP at ${mailbox.host}:${mailbox.port}; read it at ${url}/local/mailbox`);
  } catch (err) {
    await app.close().catch(() => undefined);
    await courier.close().catch(() => undefined);
    await streams.close().catch(() => undefined);
    await mailbox?.close().catch(() => undefined);
    await localDns?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    url,
    db,
    mailboxSmtp: mailbox ? { host: mailbox.host, port: mailbox.port } : null,
    clock,
    courier: { flush: () => courier.flush() },
    eventStreams: { flush: () => streams.flush(), prune: () => streams.prune() },
    localDns,
    close(options) {
      closing ??= (async () => {
        const graceMs = options?.graceMs;
        const cut =
          graceMs === undefined
            ? undefined
            : setTimeout(() => {
                const open = [...inFlight.values()];
                log.warn({ inFlight: open }, `local stack: connections still open ${graceMs} ms into closing are cut`);
                options?.onCut?.(open);
                app.server.closeAllConnections();
              }, graceMs);
        try {
          await app.close();
        } finally {
          if (cut) clearTimeout(cut);
          await courier.close().catch(() => undefined);
          await streams.close().catch(() => undefined);
          await mailbox?.close().catch(() => undefined);
          await localDns?.close().catch(() => undefined);
          await db.close();
        }
      })();
      return closing;
    },
  };
}

async function setUp(app: FastifyInstance, ctx: LocalStackContext, opts: LocalStackOptions): Promise<void> {
  const { onAnswer } = opts;
  const redis = opts.redisUrl ? connectRedis(opts.redisUrl, (message) => ctx.log.warn({ component: 'redis' }, `Redis unreachable: ${message}`)) : undefined;
  if (redis) app.addHook('onClose', async () => closeRedis(redis));
  const rateLimits = redis ? { ...opts.rateLimits, redis } : opts.rateLimits;
  // Every 503 (the database connection was lost) says when to try again.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return payload;
  });
  if (onAnswer) app.addHook('onSend', async (req, reply, payload) => (onAnswer(req, reply, payload), payload));
  await app.register(cookie);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  installErrorHandler(app, ctx.log, PUBLIC_API_ERRORS);
  app.setNotFoundHandler(async (req, reply) =>
    reply.code(404).send(errorBody(404, { reason: `No route ${req.method} ${maskUrl(req.url.split('?')[0] ?? '')}.` })),
  );
  // Text PostgreSQL cannot store is a bad request, never a database failure (500).
  app.addHook('preValidation', async (req, reply) => {
    const problem = findMalformedText(req.query, ['query']) ?? findMalformedText(req.body);
    if (problem) return reply.code(400).send(errorBody(400, { reason: problem }));
  });
  app.get('/health/alive', async () => ({ status: 'ok' }));
  app.get('/health/ready', async () => {
    await ctx.db.orm.execute(sql`SELECT 1`);
    return { status: 'ok' };
  });
  await registerIdentity(app, ctx, {
    ...(opts.flowLifespanMs ? { flowLifespanMs: opts.flowLifespanMs } : {}),
    ...(opts.sessionLifespanMs ? { sessionLifespanMs: opts.sessionLifespanMs } : {}),
    ...(opts.passwordHash ? { hash: opts.passwordHash } : {}),
    ...(rateLimits ? { rateLimits } : {}),
    mailbox: opts.mailbox === true,
  });
  await registerControlPlane(app, ctx, { devTools: opts.mailbox === true });
  const adminDeps = {
    ctx,
    hash: opts.passwordHash ?? DEFAULT_HASH_OPTIONS,
    sessionLifespanMs: opts.sessionLifespanMs ?? 24 * 60 * 60_000,
  };
  await registerIdentityAdmin(app, adminDeps);
  const oauth2 = await registerOAuth2(app, adminDeps);
  await registerHostedPages(app, { ctx, oauth2, themeOf: activeTheme });
  await registerPermissionApi(app, ctx);
}
