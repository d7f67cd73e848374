import { randomUUID } from 'node:crypto';
import { and, asc, eq, lt } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/types';
import { courierMessageDispatches, courierMessages, type CourierMessageRow } from '../identity/schema';
import { sendHttp, defaultPayload, smsPayload } from './http';
import { COURIER_HEADERS, type LocalMailbox } from './mailbox';
import { locate, systemLookup, type Lookup } from './network';
import { sendSmtp, type OutgoingEmail } from './smtp';
import { deliveryTarget, DEFAULT_FROM_ADDRESS, targetName, type HttpTarget, type SmtpTarget } from './target';
import { configAt, tenantIdentityConfig, type JsonObject } from '../kernel/tenant-config';
import { recordEvent } from '../event/record';
import { isConnectionError } from '../db/errors';

/** Ory's default `courier.message_retries`: a message that failed this many dispatches is abandoned. */
export const DEFAULT_MESSAGE_RETRIES = 5;
/** Kratos' dial timeout; also how long a server may take to greet, answer or accept. */
const DEFAULT_TIMEOUT_MS = 10_000;
const IDLE_POLL_MS = 500;
const BATCH = 50;

/** A failed delivery, in the words the delivery log shows a project's writers; `final` abandons the message now. */
class DeliveryError extends Error {
  constructor(
    message: string,
    readonly final = false,
  ) {
    super(message);
  }
}

/** An address that is safe in an SMTP command and a header: no spaces, brackets, quotes or separators. */
const DELIVERABLE_EMAIL = /^[^\s<>()[\]\\,;:"@]+@[^\s<>()[\]\\,;:"@]+$/;

const reasonOf = (err: unknown): string => {
  const e = err as NodeJS.ErrnoException & { responseCode?: number };
  return [e.code, e.responseCode, e.message].filter((x) => x !== undefined && x !== '').join(' ');
};

const isCourierHeader = (name: string) => (Object.values(COURIER_HEADERS) as string[]).includes(name.toLowerCase());

/** A message claimed longer ago than this by a stack that stopped mid-dispatch goes back to the queue. */
const STALE_CLAIM_MS = 60_000;

export interface CourierOptions {
  /** How often the queue is looked at when nothing triggers a pass. Default 500 ms. */
  pollMs?: number;
  /** The local mailbox, when it runs: the default destination, and where mail for servers elsewhere goes. */
  mailbox?: LocalMailbox | null;
  /** How long a server may take to accept a connection, greet or answer. Default 10 s. */
  timeoutMs?: number;
  lookup?: Lookup;
  /** The stack's clock (`ctx.clock.now`): claim and dispatch times, and when a claim counts as stale. Default real time. */
  now?: () => Date;
  /**
   * How long a claimed message may stay unfinished before any instance puts it back in the queue (its
   * instance is taken to have died mid-dispatch). It must exceed the longest dispatch (a few `timeoutMs`),
   * or a slow dispatch of a live instance is sent again. Default 60 s.
   */
  claimTimeoutMs?: number;
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
export function startCourier(db: Db, log: Logger, opts: CourierOptions = {}): Courier {
  const now = opts.now ?? (() => new Date());
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const lookup = opts.lookup ?? systemLookup;
  const mailbox = opts.mailbox ?? null;

  function email(message: CourierMessageRow, headers: Record<string, string>): OutgoingEmail {
    return { to: message.recipient, subject: message.subject, text: message.body, html: message.html_body, date: message.created_at, headers };
  }

  /** The local mailbox, over SMTP with the courier's login for email, as a text message for SMS. */
  async function toMailbox(message: CourierMessageRow, config: JsonObject): Promise<void> {
    if (!mailbox) {
      throw new DeliveryError(
        message.type === 'phone'
          ? 'No SMS channel is configured (courier.channels, id sms), and the local mailbox is off: the message was not sent.'
          : 'No SMTP server is configured (courier.smtp.connection_uri), and the local mailbox is off: the message was not sent.',
      );
    }
    const common = { id: message.id, nid: message.nid, recipient: message.recipient, subject: message.subject, body: message.body, template_type: message.template_type, created_at: message.created_at };
    if (message.type === 'phone') return mailbox.addText(common);
    const smtp = (configAt(config, 'courier', 'smtp') ?? {}) as JsonObject;
    const configured = Object.entries((smtp.headers ?? {}) as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && !isCourierHeader(e[0]),
    );
    const headers = {
      ...Object.fromEntries(configured),
      [COURIER_HEADERS.id]: message.id,
      [COURIER_HEADERS.nid]: message.nid,
      [COURIER_HEADERS.template]: message.template_type,
      [COURIER_HEADERS.created]: message.created_at.toISOString(),
    };
    const from = { address: typeof smtp.from_address === 'string' && smtp.from_address ? smtp.from_address : DEFAULT_FROM_ADDRESS, name: typeof smtp.from_name === 'string' ? smtp.from_name : '' };
    const conn = { address: mailbox.host, port: mailbox.port, serverName: 'localhost', implicitTls: false, startTls: false, skipVerify: false, user: mailbox.courierLogin.user, password: mailbox.courierLogin.pass, from, localName: 'localhost' };
    await sendSmtp(conn, email(message, headers), timeoutMs).catch((err: unknown) => {
      log.debug({ message_id: message.id, reason: reasonOf(err) }, 'the local mailbox did not take a message');
      throw new DeliveryError('Could not deliver to the local mailbox.');
    });
  }

  /** A project's own server: on this machine it is sent to for real, at the address resolved once. */
  async function toServer(message: CourierMessageRow, config: JsonObject, target: SmtpTarget | HttpTarget): Promise<void> {
    // One text for every failure, so the log does not tell a project's writers which ports of this machine are open.
    const unreachable = (err: unknown) => {
      log.debug({ nid: message.nid, message_id: message.id, target: targetName(target), reason: reasonOf(err) }, 'courier could not deliver');
      return new DeliveryError(`Could not connect to the ${targetName(target)}.`);
    };
    const located = await locate(target.host, lookup).catch((err: unknown) => {
      throw unreachable(err);
    });
    if (located.where === 'elsewhere') {
      if (mailbox) {
        log.info({ nid: message.nid, message_id: message.id, target: targetName(target) }, 'courier delivers to the local mailbox instead of a server off this machine');
        return toMailbox(message, config);
      }
      throw new DeliveryError(`The local stack sends nothing beyond this machine: the ${targetName(target)} is not on it, so the message was not sent.`);
    }
    const attempt =
      target.kind === 'smtp'
        ? sendSmtp({ ...target, address: located.address }, email(message, target.headers), timeoutMs)
        : sendHttp(target, located.address, located.family, target.kind === 'sms' ? smsPayload(message) : defaultPayload(message), timeoutMs);
    await attempt.catch((err: unknown) => {
      throw unreachable(err);
    });
  }

  async function deliver(message: CourierMessageRow, config: JsonObject): Promise<void> {
    // As Kratos: a recipient that cannot go into an SMTP command is abandoned rather than sent anywhere.
    if (message.type === 'email' && !DELIVERABLE_EMAIL.test(message.recipient)) {
      throw new DeliveryError(`courier: email recipient for message ${message.id} is not a valid email address`, true);
    }
    const target = deliveryTarget(config, message.type);
    if (target.kind === 'invalid') throw new DeliveryError(target.reason);
    if (target.kind === 'mailbox') return toMailbox(message, config);
    return toServer(message, config, target);
  }

  async function dispatch(message: CourierMessageRow): Promise<void> {
    const config = await tenantIdentityConfig(db, message.nid);
    let error: string | null = null;
    let final = false;
    try {
      await deliver(message, config);
    } catch (err) {
      if (!(err instanceof DeliveryError)) log.error({ message_id: message.id, reason: reasonOf(err) }, 'courier delivery failed unexpectedly');
      error = err instanceof DeliveryError ? err.message : 'The message could not be delivered.';
      final = err instanceof DeliveryError && err.final;
    }
    const sendCount = message.send_count + 1;
    const status = error === null ? 'sent' : final || sendCount >= retriesOf(config) ? 'abandoned' : 'queued';
    await db.tx(async (q) => {
      await q.orm.insert(courierMessageDispatches).values({
        id: randomUUID(),
        nid: message.nid,
        message_id: message.id,
        status: error === null ? 'success' : 'failed',
        error: error === null ? null : { message: error, reason: error },
        created_at: now(),
        updated_at: now(),
      });
      await q.orm
        .update(courierMessages)
        .set({ status, send_count: sendCount, updated_at: now() })
        .where(eq(courierMessages.id, message.id));
      if (status !== 'queued') await recordEvent(q, { now }, message.nid, status === 'sent' ? 'CourierMessageSent' : 'CourierMessageAbandoned', { channel: message.type, template_type: message.template_type });
    });
    if (error !== null) log.warn({ nid: message.nid, message_id: message.id, status, send_count: sendCount }, `courier dispatch failed: ${error}`);
  }

  async function pass(): Promise<number> {
    // A message left processing by a stack that stopped mid-dispatch (a dispatch takes seconds) goes back to the queue.
    await db.orm
      .update(courierMessages)
      .set({ status: 'queued' })
      .where(and(eq(courierMessages.status, 'processing'), lt(courierMessages.updated_at, new Date(now().getTime() - (opts.claimTimeoutMs ?? STALE_CLAIM_MS)))));
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
          .set({ status: 'processing', updated_at: now() })
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
      await pass().catch((err: unknown) => {
        // A lost database connection ends this pass only: the next pass runs on a fresh one and finds the work again.
        if (isConnectionError(err)) log.warn({ err: { message: (err as Error).message } }, 'courier pass ended: the database connection was lost; the next pass takes over');
        else log.error({ err }, 'courier pass failed');
      });
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
