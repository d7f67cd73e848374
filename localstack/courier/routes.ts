import type { Message } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../kernel/route';
import type { AdminDeps } from '../kernel/admin-context';
import { dispatchesOf, findMessage, listMessages } from './store';
import { messageView } from './views';
import { badRequest, resourceNotFound } from '../kernel/errors';
import { messageSchema } from '../../shared/schemas/messaging';
import { idParams, tenantParams } from '../identity/routes';
import { decodePageToken, setLinkHeader } from '../kernel/paging';

const STATUSES = ['queued', 'sent', 'processing', 'abandoned'] as const;

/** Kratos' courier paging: 10 a page unless asked, at most 500 (more is cut to 500, none or less than 1 is 10). */
export const COURIER_PAGE = { default: 10, max: 500 } as const;

const listQuery = z.object({
  page_size: z
    .string()
    .regex(/^[+-]?\d{1,9}$/, { error: 'page_size must be a whole number' })
    .optional()
    .transform((v) => {
      const n = v === undefined ? 0 : Number(v);
      return n <= 0 ? COURIER_PAGE.default : Math.min(n, COURIER_PAGE.max);
    }),
  page_token: z.string().max(1024).optional(),
  status: z.string().max(64).optional(),
  recipient: z.string().max(1024).optional(),
});

/** Kratos' answer to a `status` filter that is not a message status. */
export const INVALID_STATUS_REASON = 'Message status is not valid';

/** What Kratos shows of a message's subject and body outside dev mode. */
export const REDACTED = '<redacted-unless-dev-mode>';

/**
 * Kratos answers subjects and bodies only in dev mode (`--dev`). The local stack is in dev mode while its
 * local mailbox is on (LOCAL_MAILBOX): that setting already shows every message to this machine.
 */
function redactUnlessDevMode(deps: AdminDeps, message: Message): Message {
  return deps.ctx.mailbox ? message : { ...message, subject: REDACTED, body: REDACTED };
}

/** CourierApi: listCourierMessages and getCourierMessage of the tenant. */
export function registerCourierRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  route(scope, deps.ctx, {
    method: 'GET',
    url: '/admin/courier/messages',
    params: tenantParams,
    query: listQuery,
    auth: 'project-key-or-member',
    response: z.array(messageSchema),
    handler: async ({ q, query, tenant, req, reply }) => {
      if (query.status !== undefined && !(STATUSES as readonly string[]).includes(query.status)) throw badRequest(INVALID_STATUS_REASON);
      const rows = await listMessages(q, {
        nid: tenant.nid,
        after: decodePageToken(query.page_token, true),
        limit: query.page_size,
        ...(query.status ? { status: query.status } : {}),
        ...(query.recipient !== undefined ? { recipient: query.recipient.trim().toLowerCase() } : {}),
      });
      const page = rows.slice(0, query.page_size);
      const last = page.at(-1);
      setLinkHeader(req, reply, query.page_size, rows.length > query.page_size && last ? { id: last.id, createdAt: last.created_at.toISOString() } : null);
      const dispatches = await dispatchesOf(q, tenant.nid, page.map((m) => m.id));
      return page.map((m) => redactUnlessDevMode(deps, messageView(m, dispatches.get(m.id))));
    },
  });

  route(scope, deps.ctx, {
    method: 'GET',
    url: '/admin/courier/messages/:id',
    params: idParams,
    auth: 'project-key-or-member',
    response: messageSchema,
    handler: async ({ q, params, tenant, req }) => {
      const row = await findMessage(q, tenant.nid, params.id);
      if (!row) throw resourceNotFound('courier message');
      return redactUnlessDevMode(deps, messageView(row, (await dispatchesOf(q, row.nid, [row.id])).get(row.id)));
    },
  });
}
