import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ANALYTICS_CONSENT_HEADER, EVENT_RATE, takeEvents, type EventBucket } from '../shared/domain/analytics';
import { capStrings, INGEST_MAX_EVENTS, ingestBatchSchema } from '../shared/schemas/ingest';
import { oryError } from './ory-proxy';
import { createInnerContext } from './trpc/context';
import { TtlCache } from './trpc/ttl-cache';
import { UpstreamError } from './upstream/errors';
import { disposableDeadline } from './upstream/transport';

const REMOTE_READS = ['surveys', 'web_experiments', 'remote_config'] as const;
/** A batch of 100 events with their properties fits in this; more is refused (413), not truncated. */
export const INGEST_BODY_LIMIT = 1024 * 1024;
const REMOTE_TIMEOUT_MS = 10_000;
/** An idle bucket is full again after burst / rate seconds: forgetting it then changes nothing. */
const BUCKET_TTL_MS = (EVENT_RATE.burst / EVENT_RATE.perSecond) * 1000;

export const INGEST_MESSAGES = {
  signIn: 'Sign in to send analytics.',
  consent: 'Analytics are sent only with your consent. Allow analytics in your account settings to send them.',
  tooLarge: `A batch is at most ${INGEST_BODY_LIMIT / 1024} KiB and ${INGEST_MAX_EVENTS} events; send fewer events at a time.`,
  rate: `Too many analytics events: at most ${EVENT_RATE.perSecond} a second, in bursts of at most ${EVENT_RATE.burst}. Send the rest later.`,
} as const;

export interface IngestOptions {
  analyticsUrl: string | undefined;
  /** Off a local stack: batches need the user's consent (spec §1). */
  consentRequired: boolean;
  /** The rate limiter's clock (ms); tests freeze it to count events instead of timing them. */
  now?: () => number;
}

const tooLarge = (reply: FastifyReply) => reply.code(413).send(oryError(413, INGEST_MESSAGES.tooLarge, 'The request body is too large'));

/**
 * Product analytics on our own origin (spec §7 Analytics): POST /ingest/batch forwards a validated batch
 * (strings capped at 65535) to the analytics upstream, and GET /ingest/{surveys,web_experiments,remote_config}
 * read from it. Nothing of the user's session goes with them: no cookie, no authorization. Without an
 * analytics upstream batches are accepted and dropped. GET /api/client-config tells the browser whether it
 * must ask for consent before sending anything.
 *
 * A batch is taken only as spec §1 and §9 say: from a signed-in session (401), with the user's consent
 * (the consent header; 403) unless this is a local stack, at most 1 MiB and 100 events (413), and within
 * 10 events a second with bursts of 100 per session, counted here on the server (429 with Retry-After).
 */
export function registerIngest(app: FastifyInstance, opts: IngestOptions): void {
  const now = opts.now ?? Date.now;
  const buckets = new TtlCache<EventBucket>(BUCKET_TTL_MS);

  app.get('/api/client-config', async () => ({ analytics: { consentRequired: opts.consentRequired } }));

  app.post(
    '/ingest/batch',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      errorHandler: (error, _req, reply) => {
        if (error.statusCode === 413) return tooLarge(reply);
        const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        return reply.code(status).send(oryError(status, status === 500 ? 'The batch could not be taken.' : error.message, status === 500 ? 'An internal server error occurred' : 'The request was malformed or contained invalid parameters'));
      },
    },
    async (req, reply) => {
      const who = await sender(app, req, reply, opts.consentRequired);
      if (!who) return reply;
      const raw = req.body as { batch?: unknown } | undefined;
      if (Array.isArray(raw?.batch) && raw.batch.length > INGEST_MAX_EVENTS) return tooLarge(reply);
      const parsed = ingestBatchSchema.safeParse(req.body);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        return reply.code(400).send(oryError(400, first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'The batch is not valid.', 'The request was malformed or contained invalid parameters'));
      }
      const taken = takeEvents(buckets.get(who), parsed.data.batch.length, now());
      buckets.set(who, taken.bucket);
      if (!taken.allowed) {
        req.log.info({ events: parsed.data.batch.length }, 'analytics rate limit reached');
        return reply
          .code(429)
          .header('retry-after', String(Math.max(1, Math.ceil(taken.retryAfterMs / 1000))))
          .send(oryError(429, INGEST_MESSAGES.rate, 'The request was rate limited'));
      }
      if (!opts.analyticsUrl) return reply.code(204).send();
      const body = JSON.stringify({ ...parsed.data, batch: parsed.data.batch.map((e) => capStrings(e)) });
      const deadline = disposableDeadline(REMOTE_TIMEOUT_MS);
      try {
        const res = await fetch(`${opts.analyticsUrl}/ingest/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: deadline.signal });
        const text = await res.text();
        return reply.code(res.status).type(res.headers.get('content-type') ?? 'application/json').send(text);
      } catch (err) {
        req.log.warn({ err }, 'analytics upstream unreachable');
        return reply.code(502).send(oryError(502, 'The analytics service could not be reached.', 'The upstream service is unavailable'));
      } finally {
        deadline.done();
      }
    },
  );

  const remote = z.enum(REMOTE_READS);
  app.get('/ingest/:what', async (req, reply) => {
    const what = remote.safeParse((req.params as { what?: string }).what);
    if (!what.success) return reply.code(404).send(oryError(404, `No route GET ${req.url.split('?')[0]}`, 'The requested resource could not be found'));
    if (!opts.analyticsUrl) return reply.send(what.data === 'remote_config' ? {} : { [what.data]: [] });
    const deadline = disposableDeadline(REMOTE_TIMEOUT_MS);
    try {
      const res = await fetch(`${opts.analyticsUrl}/ingest/${what.data}`, { headers: { accept: 'application/json' }, signal: deadline.signal });
      return reply.code(res.status).type('application/json').send(await res.text());
    } catch {
      return reply.code(502).send(oryError(502, 'The analytics service could not be reached.', 'The upstream service is unavailable'));
    } finally {
      deadline.done();
    }
  });
}

/**
 * Who may send this batch, as the key its rate is counted under (the hash of the session cookie): a
 * signed-in session, consenting unless on a local stack. Otherwise the refusal is sent and null answered.
 */
async function sender(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, consentRequired: boolean): Promise<string | null> {
  const ctx = createInnerContext({ deps: app.deps, cookie: req.headers.cookie, requestId: String(req.id), log: req.log as never });
  let signedIn: boolean;
  try {
    signedIn = (await ctx.getSession()) !== null;
  } catch (error) {
    const timeout = error instanceof UpstreamError && error.kind === 'timeout';
    req.log.warn({ err: error }, 'analytics sender could not be checked');
    void reply.code(timeout ? 504 : 502).send(oryError(timeout ? 504 : 502, 'The session could not be checked. Try again in a moment.', 'The upstream service is unavailable'));
    return null;
  }
  if (!signedIn || !ctx.sessionKey) {
    void reply.code(401).send(oryError(401, INGEST_MESSAGES.signIn, 'The request could not be authorized', 'session_inactive'));
    return null;
  }
  if (consentRequired && req.headers[ANALYTICS_CONSENT_HEADER] !== 'granted') {
    void reply.code(403).send(oryError(403, INGEST_MESSAGES.consent, 'The requested action was forbidden', 'analytics_consent_required'));
    return null;
  }
  return ctx.sessionKey;
}
