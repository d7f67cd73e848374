import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { route } from '../route';
import type { Queryable } from '../db/types';
import type { IdentityDeps } from './deps';
import { OryHttpError } from './errors';
import { queryValue } from './http';
import { projects } from '../controlplane/schema';
import { courierMessages, type CourierMessageRow } from './schema';
import { CONSOLE_NID } from './tenant-id';

export interface MailInput {
  to: string;
  subject: string;
  body: string;
  /** Kratos' template types (`recovery_code_valid`, …, `stub`), and the console's own `member_invite`. */
  template: string;
  /** The notification channel; stored as Ory's CourierMessageType (`email`, or `phone` for sms). */
  type?: 'email' | 'sms';
}

/**
 * Queues a message of tenant `nid` (in the caller's transaction: a flow that fails sends nothing); the
 * courier (`courier-delivery.ts`) dispatches it to the local mailbox. Logs where to read it, never its content.
 */
export async function sendMail(deps: Pick<IdentityDeps, 'ctx'>, q: Queryable, nid: string, mail: MailInput): Promise<string> {
  const id = randomUUID();
  await q.orm.insert(courierMessages).values({
    id,
    nid,
    type: mail.type === 'sms' ? 'phone' : 'email',
    status: 'queued',
    recipient: mail.to,
    subject: mail.subject,
    body: mail.body,
    template_type: mail.template,
  });
  deps.ctx.log.info(
    { nid, to: mail.to, template: mail.template, mailbox: `${deps.ctx.publicUrl()}/local/mailbox` },
    `Email "${mail.subject}" queued for ${mail.to}; read it at ${deps.ctx.publicUrl()}/local/mailbox`,
  );
  return id;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Only loopback clients talking to the stack directly, never through a proxy. */
export function assertLoopback(req: FastifyRequest): void {
  const remote = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
  // A request relayed by a proxy (e.g. the console's /.ory pass-through) may come from anywhere.
  const proxied = Boolean(req.headers['x-forwarded-host'] || req.headers['x-forwarded-prefix'] || req.headers.forwarded);
  if (proxied || !LOOPBACK.test(remote) || hops.some((h) => !LOOPBACK.test(h))) {
    throw new OryHttpError(403, { reason: 'The local mailbox is only available to clients on this machine.' });
  }
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

type MailboxRow = CourierMessageRow & { project_slug: string | null };

/**
 * The newest 200 delivered messages of every tenant, each with its tenant's project slug (null for the console's
 * own); to one recipient when `to` is given, of one project when `project` (a slug) is given, of the
 * console's own tenant when `project` is the empty string.
 */
async function listMessages(q: Queryable, to: string | undefined, project: string | undefined): Promise<MailboxRow[]> {
  return q.orm
    .select({ ...getTableColumns(courierMessages), project_slug: projects.slug })
    .from(courierMessages)
    .leftJoin(projects, eq(projects.id, courierMessages.nid))
    .where(
      and(
        eq(courierMessages.status, 'sent'),
        to ? eq(courierMessages.recipient, to.trim().toLowerCase()) : undefined,
        project === undefined ? undefined : project === '' ? eq(courierMessages.nid, CONSOLE_NID) : eq(projects.slug, project),
      ),
    )
    .orderBy(desc(courierMessages.created_at), courierMessages.id)
    .limit(200);
}

/** GET /local/mailbox (HTML) and /local/mailbox/messages (JSON, newest first, `?to=`, `?project=`). */
const mailboxQuery = z.looseObject({ to: queryValue, project: queryValue });

export function registerMailbox(app: FastifyInstance, deps: IdentityDeps): void {
  route(app, deps.ctx, {
    method: 'GET',
    url: '/local/mailbox/messages',
    query: mailboxQuery,
    auth: 'public',
    handler: async ({ req, query }) => {
      assertLoopback(req);
      // Deliver what is queued first, so mail a flow just sent is here when the flow has answered.
      await deps.ctx.courier.flush();
      const rows = await listMessages(deps.ctx.db, query.to, query.project);
      return rows.map((m) => ({
        id: m.id,
        nid: m.nid,
        project_slug: m.project_slug,
        type: m.type,
        status: m.status,
        recipient: m.recipient,
        subject: m.subject,
        body: m.body,
        template_type: m.template_type,
        send_count: m.send_count,
        created_at: m.created_at.toISOString(),
        updated_at: m.updated_at.toISOString(),
      }));
    },
  });

  route(app, deps.ctx, {
    method: 'GET',
    url: '/local/mailbox',
    query: mailboxQuery,
    auth: 'public',
    handler: async ({ req, reply, query }) => {
      assertLoopback(req);
      await deps.ctx.courier.flush();
      const rows = await listMessages(deps.ctx.db, query.to, query.project);
      const items = rows
        .map(
          (m) => `<article><h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To ${escapeHtml(m.recipient)} · ${escapeHtml(m.project_slug ? `project ${m.project_slug}` : 'console')} · ${escapeHtml(m.created_at.toISOString())}</p>
  <pre>${escapeHtml(m.body)}</pre></article>`,
        )
        .join('\n');
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local mailbox</title>
  <style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
  article{border:1px solid #ddd;border-radius:8px;padding:0 1rem;margin:1rem 0}.meta{color:#555}
  pre{white-space:pre-wrap}</style></head><body><h1>Local mailbox</h1>
  ${items || '<p>No messages yet.</p>'}</body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  });
}
