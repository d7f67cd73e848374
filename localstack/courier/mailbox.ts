import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { simpleParser, type AddressObject } from 'mailparser';
import type { Logger } from 'pino';
import { SMTPServer } from 'smtp-server';
import { isLoopback } from './network';
import type { MailboxEntry } from '../kernel/mail';

/** One message the local mailbox received: an email over SMTP (one per envelope recipient), or a text message. */
export type { MailboxEntry } from '../kernel/mail';

/** Headers the courier adds to what it delivers to the mailbox; believed only from its own SMTP login. */
export const COURIER_HEADERS = {
  id: 'x-courier-message-id',
  nid: 'x-courier-nid',
  template: 'x-courier-template-type',
  created: 'x-courier-created-at',
} as const;

export interface LocalMailbox {
  /** Where its SMTP server listens (loopback). */
  host: string;
  port: number;
  /** The courier's SMTP login: mail sent with it is tagged with its project and template. */
  courierLogin: { user: string; pass: string };
  /** A text message (the local stack's SMS gateway is the mailbox itself). */
  addText(entry: Omit<MailboxEntry, 'type' | 'html' | 'sender'>): void;
  /** Newest first (by the courier message's creation, else by arrival), at most `limit`. */
  list(filter: { to?: string; nid?: string }, limit: number): MailboxEntry[];
  close(): Promise<void>;
}

const CAPACITY = 1000;
const MAX_SIZE = 10 * 1024 * 1024;

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const addressText = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a.map((x) => x.text).join(', ') : (a?.text ?? ''));

/**
 * The local mailbox: a real SMTP server on loopback (smtp-server; plain text, AUTH optional and accepted
 * from anyone) that keeps the newest messages in memory, parsed with mailparser. Any program on this machine
 * can send to it. Mail the courier delivers is tagged with its message id, tenant and template by headers
 * that count only when sent with the courier's own login.
 */
export async function startMailbox(opts: { port: number; host?: string; log: Logger }): Promise<LocalMailbox> {
  const host = opts.host ?? '127.0.0.1';
  const courierLogin = { user: 'courier', pass: randomBytes(24).toString('base64url') };
  const entries: (MailboxEntry & { seq: number })[] = [];
  let seq = 0;
  const keep = (entry: MailboxEntry) => {
    entries.push({ ...entry, seq: seq++ });
    if (entries.length > CAPACITY) entries.splice(0, entries.length - CAPACITY);
  };

  const server = new SMTPServer({
    name: 'localhost',
    banner: 'Local mailbox of the local stack',
    logger: false,
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    size: MAX_SIZE,
    // A client that keeps its connection open does not hold up the stack's shutdown.
    closeTimeout: 1000,
    onConnect(session, callback) {
      if (!isLoopback(session.remoteAddress)) return callback(new Error('The local mailbox only accepts mail from this machine.'));
      callback();
    },
    onAuth(auth, _session, callback) {
      const courier = same(auth.username ?? '', courierLogin.user) && same(auth.password ?? '', courierLogin.pass);
      callback(null, { user: courier ? 'courier' : 'guest' });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) throw Object.assign(new Error('Message is too large'), { responseCode: 552 });
          const trusted = session.user === 'courier';
          const header = (name: string) => {
            const v = trusted ? parsed.headers.get(name) : undefined;
            return typeof v === 'string' && v ? v : null;
          };
          const created = header(COURIER_HEADERS.created);
          const createdAt = created && !Number.isNaN(Date.parse(created)) ? new Date(created) : new Date();
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          for (const recipient of recipients) {
            keep({
              id: (recipients.length === 1 && header(COURIER_HEADERS.id)) || randomUUID(),
              nid: header(COURIER_HEADERS.nid),
              type: 'email',
              sender: addressText(parsed.from) || (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
              recipient,
              subject: parsed.subject ?? '',
              body: (parsed.text ?? '').replace(/\r?\n$/, ''),
              html: typeof parsed.html === 'string' ? parsed.html : null,
              template_type: header(COURIER_HEADERS.template),
              created_at: createdAt,
            });
          }
          callback();
        })
        .catch((err: Error) => {
          opts.log.debug({ err: err.message }, 'the local mailbox could not read a message');
          callback(err);
        });
    },
  });
  server.on('error', (err) => opts.log.warn({ err: err.message }, 'local mailbox SMTP error'));

  const port = await new Promise<number>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`The local mailbox cannot listen on ${host}:${opts.port}: the port is in use. Set LOCAL_SMTP_PORT to a free port (0 picks one).`)
          : err,
      );
    };
    server.server.once('error', onError);
    server.listen(opts.port, host, () => {
      server.server.off('error', onError);
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : opts.port);
    });
  });

  return {
    host,
    port,
    courierLogin,
    addText(entry) {
      keep({ ...entry, type: 'phone', html: null, sender: '' });
    },
    list(filter, limit) {
      const to = filter.to?.trim().toLowerCase();
      return entries
        .filter((e) => (to === undefined || e.recipient.toLowerCase() === to) && (filter.nid === undefined || e.nid === filter.nid))
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || b.seq - a.seq)
        .slice(0, limit)
        .map(({ seq: _seq, ...entry }) => entry);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
