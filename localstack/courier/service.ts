import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../kernel/route';
import type { Queryable } from '../db/types';
import type { IdentityDeps } from '../kernel/identity-deps';
import { OryError } from '../kernel/errors';
import { assertLoopback, escapeHtml, queryValue } from '../kernel/http';
import { projects } from '../kernel/tables';
import type { LocalMailbox, MailboxEntry } from './mailbox';
import { courierMessages } from '../identity/schema';
import { CONSOLE_NID } from '../kernel/tenant-id';

export interface MailInput {
  to: string;
  subject: string;
  body: string;
  /** Kratos' template types (`recovery_code_valid`, …, `stub`), and the console's own `member_invite`. */
  template: string;
  /** The notification channel; stored as Ory's CourierMessageType (`email`, or `phone` for sms). */
  type?: 'email' | 'sms';
  /** The HTML alternative of an email. */
  html?: string;
  /** The template's data in Kratos' JSON names, sent as `template_data` by HTTP delivery. */
  templateData?: Record<string, unknown>;
}

/**
 * Queues a message of tenant `nid` (in the caller's transaction: a flow that fails sends nothing); the
 * courier (`delivery.ts`) delivers it. Logs that it is queued, never its content.
 */
export async function sendMail(deps: Pick<IdentityDeps, 'ctx'>, q: Queryable, nid: string, mail: MailInput): Promise<string> {
  const id = randomUUID();
  const now = deps.ctx.clock.now();
  await q.orm.insert(courierMessages).values({
    id,
    created_at: now,
    updated_at: now,
    nid,
    type: mail.type === 'sms' ? 'phone' : 'email',
    status: 'queued',
    recipient: mail.to,
    subject: mail.subject,
    body: mail.body,
    template_type: mail.template,
    html_body: mail.type === 'sms' ? null : (mail.html ?? null),
    template_data: mail.templateData ?? null,
  });
  deps.ctx.log.info({ nid, message_id: id, to: mail.to, template: mail.template }, `${mail.type === 'sms' ? 'Text message' : `Email "${mail.subject}"`} queued for ${mail.to}`);
  return id;
}

export { assertLoopback, escapeHtml } from '../kernel/http';

/** A mailbox entry with its tenant's project slug (null for the console's own mail and for mail from anyone else). */
type MailboxRow = MailboxEntry & { project_slug: string | null };

/**
 * The newest 200 messages the local mailbox received; to one recipient when `to` is given, of one project
 * when `project` (a slug) is given, of the console's own tenant when `project` is the empty string.
 */
async function listMessages(q: Queryable, mailbox: Pick<LocalMailbox, 'list'>, to: string | undefined, project: string | undefined): Promise<MailboxRow[]> {
  let nid: string | undefined;
  if (project === '') nid = CONSOLE_NID;
  else if (project !== undefined) {
    const [row] = await q.orm.select({ id: projects.id }).from(projects).where(eq(projects.slug, project));
    if (!row) return [];
    nid = row.id;
  }
  const entries = mailbox.list({ ...(to ? { to } : {}), ...(nid ? { nid } : {}) }, 200);
  const nids = [...new Set(entries.map((e) => e.nid).filter((n): n is string => n !== null && n !== CONSOLE_NID))];
  const slugs = new Map(
    nids.length === 0 ? [] : (await q.orm.select({ id: projects.id, slug: projects.slug }).from(projects).where(inArray(projects.id, nids))).map((p) => [p.id, p.slug]),
  );
  return entries.map((e) => ({ ...e, project_slug: e.nid ? (slugs.get(e.nid) ?? null) : null }));
}

function mailboxOf(deps: IdentityDeps): Pick<LocalMailbox, 'list'> {
  if (!deps.ctx.mailbox) throw new OryError(404, { reason: 'The local mailbox is off.' });
  return deps.ctx.mailbox;
}

const smtpAt = (deps: IdentityDeps) => (deps.ctx.mailbox ? `${deps.ctx.mailbox.host}:${deps.ctx.mailbox.port}` : '');

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
      const rows = await listMessages(deps.ctx.db, mailboxOf(deps), query.to, query.project);
      return rows.map((m) => ({
        id: m.id,
        nid: m.nid,
        project_slug: m.project_slug,
        type: m.type,
        status: 'sent',
        sender: m.sender,
        recipient: m.recipient,
        subject: m.subject,
        body: m.body,
        html: m.html,
        template_type: m.template_type,
        created_at: m.created_at.toISOString(),
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
      const rows = await listMessages(deps.ctx.db, mailboxOf(deps), query.to, query.project);
      const items = rows
        .map(
          (m) => `<article><h2>${escapeHtml(m.type === 'phone' ? `Text message${m.subject ? `: ${m.subject}` : ''}` : m.subject)}</h2>
  <p class="meta">${m.sender ? `From ${escapeHtml(m.sender)} · ` : ''}To ${escapeHtml(m.recipient)} · ${escapeHtml(m.project_slug ? `project ${m.project_slug}` : m.nid === CONSOLE_NID ? 'console' : m.nid ? 'deleted project' : 'sent over SMTP')} · ${escapeHtml(m.created_at.toISOString())}</p>
  <pre>${escapeHtml(m.body)}</pre></article>`,
        )
        .join('\n');
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local mailbox</title>
  <style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
  article{border:1px solid #ddd;border-radius:8px;padding:0 1rem;margin:1rem 0}.meta{color:#555}
  pre{white-space:pre-wrap}</style></head><body><h1>Local mailbox</h1>
  <p>Any program on this machine can send mail here over SMTP at ${escapeHtml(smtpAt(deps))}.</p>
  ${items || '<p>No messages yet.</p>'}</body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  });
}
