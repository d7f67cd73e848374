import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminCaller } from './admin-auth';
import type { Caller } from './caller';
import { badRequest, conflict } from './errors';
import type { Queryable } from './queryable';
import { idempotencyKeys } from './tables';

/**
 * Writes sent again without being done twice. A client that lost the connection while a write was under way
 * cannot tell whether it was done; sending it again with the same `Idempotency-Key` header (any instance may
 * answer) is then safe: the key is claimed in the write's own transaction and its answer stored there, so it
 * is found exactly when the write committed. The first answer comes back (with `Idempotent-Replayed: true`)
 * instead of a second write; a key is one caller's own and kept a day.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** The request's key, or null without one; a malformed key is a 400 that says what a key looks like. */
export function idempotencyKeyOf(req: FastifyRequest): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_SHAPE.test(value)) {
    throw badRequest('The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces, such as a UUID.');
  }
  return value;
}

/** Whose key it is: the same key of two callers is two keys. */
export function callerScope(caller: Caller | AdminCaller | null): string | null {
  if (!caller) return null;
  switch (caller.kind) {
    case 'session':
    case 'member':
      return `identity:${caller.identityId}`;
    case 'workspace-key':
      return `workspace-key:${caller.keyId}`;
    case 'api_key':
      return `project-key:${caller.keyId}`;
  }
}

/** The request a key stands for: its method, path with query, and body. */
export function requestFingerprint(req: FastifyRequest): string {
  return createHash('sha256')
    .update(`${req.method} ${req.url}\n`)
    .update(req.body === undefined ? '' : JSON.stringify(req.body))
    .digest('hex');
}

export interface StoredAnswer {
  status: number;
  body: string | null;
}

/**
 * Claims `key` for this transaction. Answers null when the write is to run (the key is new, or older than a
 * day), the stored answer when the same request committed with it before. A request with the same key still
 * under way elsewhere holds its row: the claim waits for it to commit (and then answers its answer) or to roll
 * back (and then runs). Another request under the same key is a 409.
 */
export async function claimIdempotencyKey(q: Queryable, scope: string, key: string, fingerprint: string, now: Date): Promise<StoredAnswer | null> {
  const claimed = await q.orm
    .insert(idempotencyKeys)
    .values({ caller: scope, key, fingerprint, status: null, body: null, created_at: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return null;
  const [row] = await q.orm
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.caller, scope), eq(idempotencyKeys.key, key)))
    .for('update');
  if (!row || row.created_at.getTime() <= now.getTime() - IDEMPOTENCY_KEY_TTL_MS || row.status === null) {
    // Gone meanwhile, expired, or (never committed so) unanswered: the key starts afresh with this request.
    await q.orm
      .insert(idempotencyKeys)
      .values({ caller: scope, key, fingerprint, status: null, body: null, created_at: now })
      .onConflictDoUpdate({ target: [idempotencyKeys.caller, idempotencyKeys.key], set: { fingerprint, status: null, body: null, created_at: now } });
    return null;
  }
  if (row.fingerprint !== fingerprint) {
    throw conflict('This Idempotency-Key was sent before with another request. Send a new key with each new request.');
  }
  return { status: row.status, body: row.body };
}

/** Stores the answer of the write that claimed `key`, in its transaction. */
export async function storeIdempotentAnswer(q: Queryable, scope: string, key: string, answer: StoredAnswer): Promise<void> {
  await q.orm
    .update(idempotencyKeys)
    .set({ status: answer.status, body: answer.body })
    .where(and(eq(idempotencyKeys.caller, scope), eq(idempotencyKeys.key, key)));
}

/** Lets go of a key whose write answered in a way that is not stored (a redirect): sending it again runs it again. */
export async function releaseIdempotencyKey(q: Queryable, scope: string, key: string): Promise<void> {
  await q.orm.delete(idempotencyKeys).where(and(eq(idempotencyKeys.caller, scope), eq(idempotencyKeys.key, key)));
}

/** Deletes the keys older than a day. Answers how many went. */
export async function pruneIdempotencyKeys(q: Queryable, now: Date): Promise<number> {
  const gone = await q.orm
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.created_at, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}

const replayed = new WeakSet<FastifyRequest>();

/** Whether the request was answered with a stored answer (nothing was written; the audit log records nothing). */
export const wasReplayed = (req: FastifyRequest): boolean => replayed.has(req);

/** Sends a stored answer again, marked as such. */
export function replayAnswer(req: FastifyRequest, reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  replayed.add(req);
  reply.code(answer.status).header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  if (answer.body === null) return reply.send();
  return reply.header('content-type', 'application/json; charset=utf-8').send(answer.body);
}
