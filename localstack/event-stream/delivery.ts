import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { locate, systemLookup, type Lookup } from '../courier/network';
import type { Db, Queryable } from '../db/types';
import { eventStreamAttempts, eventStreamDeliveries, eventStreams, type EventStreamAttemptRow, type EventStreamDeliveryRow, type EventStreamRow } from './schema';
import { DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signBody } from './signature';
import { isConnectionError } from '../db/errors';

/** Attempts per delivery: the first and four retries, then it is marked failed. */
export const MAX_ATTEMPTS = 5;
/** The wait before retry n (n = 1…): 10 s, 20 s, 40 s, 80 s, on the stack's clock. */
export const backoffMs = (attemptsSoFar: number) => 10_000 * 2 ** (attemptsSoFar - 1);
const TIMEOUT_MS = 10_000;
/** A claimed delivery is not picked again for this long (a stack that stopped mid-attempt gives it back then). */
const CLAIM_MS = 60_000;
const BATCH = 50;

export interface AttemptOutcome {
  status: 'success' | 'failed';
  response_code: number | null;
  latency_ms: number;
  error: string | null;
}

/**
 * POSTs `body` to the endpoint, at the address it was resolved to once (loopback only: the local stack
 * sends nothing beyond this machine). Redirects are not followed; a 2xx answer is a success.
 */
async function post(endpoint: string, body: string, headers: Record<string, string>, lookup: Lookup): Promise<{ code: number | null; error: string | null }> {
  const url = new URL(endpoint);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const located = await locate(host, lookup).catch(() => null);
  if (!located) return { code: null, error: 'The endpoint’s host name does not resolve.' };
  if (located.where === 'elsewhere') return { code: null, error: 'The local stack sends nothing beyond this machine: the endpoint is not on it.' };
  const pinned: LookupFunction = (_h, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: located.address, family: located.family }]);
    else callback(null, located.address, located.family);
  };
  return new Promise((resolve) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, signal: AbortSignal.timeout(TIMEOUT_MS) },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ code: res.statusCode ?? null, error: null }));
        res.on('error', () => resolve({ code: res.statusCode ?? null, error: 'The answer broke off.' }));
      },
    );
    // One text for every connection failure: the log does not tell a project which ports of this machine are open.
    req.on('error', () => resolve({ code: null, error: 'Could not connect to the endpoint.' }));
    req.end(body);
  });
}

/** One signed POST of a delivery's body to its stream, timed. */
export async function sendOnce(stream: EventStreamRow, delivery: EventStreamDeliveryRow, now: Date, lookup: Lookup = systemLookup): Promise<AttemptOutcome> {
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'ory-event-streams',
    [DELIVERY_HEADER]: delivery.id,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signBody(stream.secret, timestamp, body),
  };
  const started = performance.now();
  const { code, error } = stream.https_endpoint ? await post(stream.https_endpoint, body, headers, lookup) : { code: null, error: 'The stream has no endpoint.' };
  const latency = Math.round(performance.now() - started);
  const ok = code !== null && code >= 200 && code < 300;
  return { status: ok ? 'success' : 'failed', response_code: code, latency_ms: latency, error: ok ? null : (error ?? `The endpoint answered ${code}.`) };
}

/**
 * Records an attempt and moves the delivery on: success ends it; a failure retries after the backoff,
 * until the last attempt marks it failed.
 */
export async function recordAttempt(
  q: Queryable,
  delivery: EventStreamDeliveryRow,
  outcome: AttemptOutcome,
  now: Date,
  final = false,
): Promise<EventStreamAttemptRow & { event_type: string; delivery_status: 'pending' | 'success' | 'failed' }> {
  const attempts = delivery.attempts + 1;
  const status = outcome.status === 'success' ? 'success' : final || attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
  const [row] = await q.orm.insert(eventStreamAttempts).values({
    id: randomUUID(),
    stream_id: delivery.stream_id,
    delivery_id: delivery.id,
    attempt: attempts,
    status: outcome.status,
    response_code: outcome.response_code,
    latency_ms: outcome.latency_ms,
    error: outcome.error,
    at: now,
  }).returning();
  await q.orm
    .update(eventStreamDeliveries)
    .set({ status, attempts, next_attempt_at: status === 'pending' ? new Date(now.getTime() + backoffMs(attempts)) : now, updated_at: now })
    .where(eq(eventStreamDeliveries.id, delivery.id));
  return { ...row!, event_type: delivery.event_type, delivery_status: status };
}

/**
 * How much of a stream's delivery log is kept: finished deliveries (succeeded or failed for good, with their
 * attempts) older than `maxAgeMs`, and beyond the newest `perStream` of each stream, are pruned. Pending
 * deliveries are never pruned: they are still on their way.
 */
export interface DeliveryRetention {
  maxAgeMs: number;
  perStream: number;
}
export const DELIVERY_RETENTION: DeliveryRetention = { maxAgeMs: 30 * 24 * 3_600_000, perStream: 1000 };
/** How often the worker prunes, on the stack's clock. */
const PRUNE_EVERY_MS = 60_000;

/** Prunes finished deliveries beyond `retention` (their attempts go with them); answers how many deliveries went. */
export async function pruneDeliveries(q: Queryable, now: Date, retention: DeliveryRetention = DELIVERY_RETENTION): Promise<number> {
  const cutoff = new Date(now.getTime() - retention.maxAgeMs);
  const pruned = await q.orm.execute(sql`
    DELETE FROM ${eventStreamDeliveries} WHERE ${eventStreamDeliveries.id} IN (
      SELECT id FROM (
        SELECT ${eventStreamDeliveries.id} AS id, ${eventStreamDeliveries.updated_at} AS updated_at,
          row_number() OVER (PARTITION BY ${eventStreamDeliveries.stream_id} ORDER BY ${eventStreamDeliveries.created_at} DESC, ${eventStreamDeliveries.id} DESC) AS place
        FROM ${eventStreamDeliveries} WHERE ${eventStreamDeliveries.status} <> 'pending'
      ) AS finished
      WHERE finished.updated_at < ${cutoff.toISOString()}::timestamptz OR finished.place > ${retention.perStream}
    ) RETURNING ${eventStreamDeliveries.id}`);
  return (pruned as unknown as { rows: unknown[] }).rows.length;
}

export interface EventStreamWorker {
  /** Delivers every delivery that is due on the stack's clock now (each attempted once), and says how many. */
  flush(): Promise<number>;
  /** Prunes the delivery logs beyond their retention now, and says how many deliveries went. */
  prune(): Promise<number>;
  close(): Promise<void>;
}

/** The delivery worker: a pass every `pollMs`, and `flush()` for a pass now. Passes never overlap. */
export function startEventStreamWorker(
  db: Db,
  log: Logger,
  opts: { now: () => Date; pollMs?: number; lookup?: Lookup; retention?: DeliveryRetention },
): EventStreamWorker {
  let chain: Promise<number> = Promise.resolve(0);
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let prunedAt = -Infinity;
  const prune = () => pruneDeliveries(db, opts.now(), opts.retention);

  async function pass(): Promise<number> {
    const now = opts.now();
    // Claim what is due and whose stream is active: moving next_attempt_at ahead keeps a second stack away.
    const due = await db.orm
      .select({ delivery: eventStreamDeliveries, stream: eventStreams })
      .from(eventStreamDeliveries)
      .innerJoin(eventStreams, eq(eventStreams.id, eventStreamDeliveries.stream_id))
      .where(and(eq(eventStreamDeliveries.status, 'pending'), lte(eventStreamDeliveries.next_attempt_at, now), eq(eventStreams.status, 'active')))
      .orderBy(asc(eventStreamDeliveries.next_attempt_at), asc(eventStreamDeliveries.id))
      .limit(BATCH);
    let done = 0;
    for (const { delivery, stream } of due) {
      const [claimed] = await db.orm
        .update(eventStreamDeliveries)
        .set({ next_attempt_at: new Date(now.getTime() + CLAIM_MS) })
        .where(and(eq(eventStreamDeliveries.id, delivery.id), eq(eventStreamDeliveries.status, 'pending'), lte(eventStreamDeliveries.next_attempt_at, now)))
        .returning();
      if (!claimed) continue;
      const outcome = await sendOnce(stream, claimed, now, opts.lookup);
      await recordAttempt(db, claimed, outcome, opts.now());
      if (outcome.status === 'failed') log.warn({ stream_id: stream.id, delivery_id: claimed.id, attempt: claimed.attempts + 1, code: outcome.response_code }, 'event stream delivery failed');
      done++;
    }
    // The log's retention, once a minute on the stack's clock (a clock moved ahead prunes at the next pass).
    if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now.getTime();
      await prune();
    }
    return done;
  }

  const run = (): Promise<number> => {
    const next = chain.then(async () => {
      if (closed) return 0;
      return pass().catch((err: unknown) => {
        // A lost database connection ends this pass only: the next pass runs on a fresh one and finds the work again.
        if (isConnectionError(err)) log.warn({ err: { message: (err as Error).message } }, 'event stream pass ended: the database connection was lost; the next pass takes over');
        else log.error({ err }, 'event stream pass failed');
        return 0;
      });
    });
    chain = next;
    return next;
  };
  const tick = () => {
    timer = undefined;
    void run().then(() => {
      if (!closed) timer = setTimeout(tick, opts.pollMs ?? 1000);
    });
  };
  timer = setTimeout(tick, opts.pollMs ?? 1000);
  return {
    flush: run,
    prune: () => {
      const next = chain.then(() => (closed ? 0 : prune()));
      chain = next.catch(() => 0);
      return next;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await chain.catch(() => undefined);
    },
  };
}
