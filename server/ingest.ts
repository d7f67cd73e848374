import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { capStrings, ingestBatchSchema } from '../shared/schemas/ingest';
import { oryError } from './ory-proxy';
import { disposableDeadline } from './upstream/transport';

const REMOTE_READS = ['surveys', 'web_experiments', 'remote_config'] as const;
/** A batch of 100 events with their properties fits in this; more is refused, not truncated. */
const INGEST_BODY_LIMIT = 1024 * 1024;
const REMOTE_TIMEOUT_MS = 10_000;

/**
 * Product analytics on our own origin (spec §7 Analytics): POST /ingest/batch forwards a validated batch
 * (strings capped at 65535) to the analytics upstream, and GET /ingest/{surveys,web_experiments,remote_config}
 * read from it. Nothing of the user's session goes with them: no cookie, no authorization. Without an
 * analytics upstream batches are accepted and dropped. GET /api/client-config tells the browser whether it
 * must ask for consent before sending anything.
 */
export function registerIngest(app: FastifyInstance, opts: { analyticsUrl: string | undefined; consentRequired: boolean }): void {
  app.get('/api/client-config', async () => ({ analytics: { consentRequired: opts.consentRequired } }));

  app.post('/ingest/batch', { bodyLimit: INGEST_BODY_LIMIT }, async (req, reply) => {
    const parsed = ingestBatchSchema.safeParse(req.body);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      return reply.code(400).send(oryError(400, first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'The batch is not valid.', 'The request was malformed or contained invalid parameters'));
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
  });

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
