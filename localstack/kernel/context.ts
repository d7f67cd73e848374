import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from './clock';
import type { CnameLookup, LocalDns } from './dns';
import type { Db } from './queryable';
import type { MailboxEntry } from './mail';
import type { SessionInfo } from './session-token';

export type { SessionInfo } from './session-token';

/** What every local-stack module receives when it registers its routes. */
export interface LocalStackContext {
  db: Db;
  log: Logger;
  /** The console's origin: browser redirects go there and return_to must share its origin. */
  uiUrl: string;
  /** The local stack's own base URL (http://host:port), known once it listens. */
  publicUrl(): string;
  /** The caller's session from the `ory_kratos_session` cookie or `X-Session-Token`, or null. */
  resolveSession(req: FastifyRequest): Promise<SessionInfo | null>;
  /** The courier's worker: `flush()` dispatches what is queued now. */
  courier: { flush(): Promise<void> };
  /** The local mailbox (an SMTP server on loopback) when it runs; the stack is then in Kratos' dev mode. */
  mailbox: { host: string; port: number; list(filter: { to?: string; nid?: string }, limit: number): MailboxEntry[] } | null;
  /** The stack's clock: real time plus an offset tests can move forward. Read it, never `new Date()`, where time decides an outcome. */
  clock: Clock;
  /** Where custom domains' CNAME records are looked up. */
  dns: CnameLookup;
  /** The local DNS server whose records a developer sets (`/local/dns`), when it runs. */
  localDns: LocalDns | null;
}
