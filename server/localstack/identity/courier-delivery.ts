import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/types';
import { courierMessageDispatches, courierMessages, type CourierMessageRow } from './schema';
import { configAt, tenantIdentityConfig, type JsonObject } from './tenant-config';

/** Ory's default `courier.message_retries`: a message that failed this many dispatches is abandoned. */
export const DEFAULT_MESSAGE_RETRIES = 5;
const CONNECT_TIMEOUT_MS = 3000;
const IDLE_POLL_MS = 500;
const BATCH = 50;

/** Where a message goes: the local mailbox, after first reaching the server the project configured (if any). */
export type DeliveryTarget = { kind: 'mailbox' } | { kind: 'smtp' | 'http' | 'sms'; host: string; port: number };

function hostPort(url: string, defaults: Record<string, number>): { host: string; port: number } | null {
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : defaults[u.protocol.replace(/:$/, '')];
    if (!u.hostname || !port) return null;
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return null;
  }
}

/**
 * The delivery a tenant's config asks for: email by `courier.delivery_strategy` (`smtp`, the default, with
 * `courier.smtp.connection_uri`; or `http` with `courier.http.request_config.url`), SMS by the `sms` entry
 * of `courier.channels`. Without one, the local mailbox. A configured server is tried first (`reach`); the
 * local stack never relays mail to it, it delivers to the local mailbox once the server is reached.
 */
export function deliveryTarget(config: JsonObject, type: string): DeliveryTarget | { kind: 'invalid'; reason: string } {
  if (type === 'phone') {
    const channels = configAt(config, 'courier', 'channels');
    const sms = Array.isArray(channels) ? channels.find((c) => typeof c === 'object' && c !== null && (c as JsonObject).id === 'sms') : undefined;
    const url = configAt((sms ?? {}) as JsonObject, 'request_config', 'url');
    if (typeof url !== 'string' || url === '') return { kind: 'mailbox' };
    const at = hostPort(url, { http: 80, https: 443 });
    return at ? { kind: 'sms', ...at } : { kind: 'invalid', reason: 'The SMS channel’s request URL is not a valid http(s) URL.' };
  }
  const strategy = configAt(config, 'courier', 'delivery_strategy');
  if (strategy === 'http') {
    const url = configAt(config, 'courier', 'http', 'request_config', 'url');
    if (typeof url !== 'string' || url === '') return { kind: 'mailbox' };
    const at = hostPort(url, { http: 80, https: 443 });
    return at ? { kind: 'http', ...at } : { kind: 'invalid', reason: 'The HTTP delivery URL is not a valid http(s) URL.' };
  }
  const uri = configAt(config, 'courier', 'smtp', 'connection_uri');
  if (typeof uri !== 'string' || uri === '') return { kind: 'mailbox' };
  const at = hostPort(uri, { smtp: 587, smtps: 465 });
  return at ? { kind: 'smtp', ...at } : { kind: 'invalid', reason: 'The SMTP connection URI is not a valid smtp:// or smtps:// URL.' };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Tries the configured server: its name must resolve, and a server on this machine (loopback) must accept a
 * TCP connection, which is opened and closed again. A server elsewhere is never contacted: the local stack
 * sends nothing beyond this machine, so a project's settings cannot make it probe other hosts' ports.
 * Resolves, or rejects with a reason naming host and port only.
 */
export async function reach(
  target: { host: string; port: number; kind: string },
  net: { lookup: typeof lookup; connect: typeof connect } = { lookup, connect },
): Promise<void> {
  const what = target.kind === 'smtp' ? 'SMTP server' : target.kind === 'sms' ? 'SMS endpoint' : 'HTTP endpoint';
  const failure = (why: string) => new Error(`Could not connect to the ${what} at ${target.host}:${target.port}: ${why}`);
  const addresses = await net.lookup(target.host, { all: true }).catch((err: NodeJS.ErrnoException) => {
    throw failure(err.code ?? err.message);
  });
  if (!addresses.every((a) => LOOPBACK.test(a.address))) return;
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const fail = (why: string) => {
      clearTimeout(timer);
      socket.destroy();
      reject(failure(why));
    };
    const timer = setTimeout(() => fail(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`), CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      resolve();
    });
    socket.once('error', (err: NodeJS.ErrnoException) => fail(err.code ?? err.message));
  });
}

function retriesOf(config: JsonObject): number {
  const n = configAt(config, 'courier', 'message_retries');
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100 ? n : DEFAULT_MESSAGE_RETRIES;
}

export interface Courier {
  /** Runs one delivery pass now (after any pass under way), so queued messages are dispatched once. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The courier's worker: every message goes queued → processing → sent, or back to queued after a failed
 * dispatch and abandoned once it failed `courier.message_retries` times (default 5). Each attempt is a
 * dispatch row (success, or failed with its error). Claiming is one conditional UPDATE, so two workers on
 * one database never dispatch a message twice.
 */
export function startCourier(db: Db, log: Logger, opts: { pollMs?: number } = {}): Courier {
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  async function dispatch(message: CourierMessageRow): Promise<void> {
    const config = await tenantIdentityConfig(db, message.nid);
    const target = deliveryTarget(config, message.type);
    let error: string | null = null;
    if (target.kind === 'invalid') error = target.reason;
    else if (target.kind !== 'mailbox') error = await reach(target).then(() => null, (err: Error) => err.message);
    const sendCount = message.send_count + 1;
    const status = error === null ? 'sent' : sendCount >= retriesOf(config) ? 'abandoned' : 'queued';
    await db.tx(async (q) => {
      await q.orm.insert(courierMessageDispatches).values({
        id: randomUUID(),
        nid: message.nid,
        message_id: message.id,
        status: error === null ? 'success' : 'failed',
        error: error === null ? null : { message: error, reason: error },
      });
      await q.orm
        .update(courierMessages)
        .set({ status, send_count: sendCount, updated_at: sql`now()` })
        .where(eq(courierMessages.id, message.id));
    });
    if (error !== null) log.warn({ nid: message.nid, message_id: message.id, status, send_count: sendCount }, `courier dispatch failed: ${error}`);
  }

  async function pass(): Promise<number> {
    // A message left processing by a stack that stopped mid-dispatch (a dispatch takes seconds) goes back to the queue.
    await db.orm
      .update(courierMessages)
      .set({ status: 'queued' })
      .where(and(eq(courierMessages.status, 'processing'), lt(courierMessages.updated_at, sql`now() - interval '60 seconds'`)));
    const due = await db.orm
      .select({ id: courierMessages.id })
      .from(courierMessages)
      .where(eq(courierMessages.status, 'queued'))
      .orderBy(asc(courierMessages.created_at))
      .limit(BATCH);
    await Promise.all(
      due.map(async ({ id }) => {
        const [claimed] = await db.orm
          .update(courierMessages)
          .set({ status: 'processing', updated_at: sql`now()` })
          .where(and(eq(courierMessages.id, id), eq(courierMessages.status, 'queued')))
          .returning();
        if (!claimed) return;
        try {
          await dispatch(claimed);
        } catch (err) {
          // A database failure: put it back for the next pass rather than leave it processing.
          log.error({ err, message_id: id }, 'courier dispatch could not be recorded');
          await db.orm.update(courierMessages).set({ status: 'queued' }).where(eq(courierMessages.id, id)).catch(() => undefined);
        }
      }),
    );
    return due.length;
  }

  const run = (): Promise<void> => {
    const next = chain.then(async () => {
      if (closed) return;
      await pass().catch((err: unknown) => log.error({ err }, 'courier pass failed'));
    });
    chain = next;
    return next;
  };

  const tick = () => {
    timer = undefined;
    void run().then(() => {
      if (!closed) timer = setTimeout(tick, opts.pollMs ?? IDLE_POLL_MS);
    });
  };
  timer = setTimeout(tick, opts.pollMs ?? IDLE_POLL_MS);

  return {
    flush: run,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
