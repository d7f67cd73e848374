import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../route';
import { adminOf, type AdminDeps } from './context';
import { dispatchesOf, findMessage, listMessages } from './courier-store';
import { messageView } from './courier-view';
import { notFound } from './errors';
import { idParams, tenantParams } from './identity-routes';
import { decodePageToken, pageSizeParam, setLinkHeader } from './paging';

const listQuery = z.object({
  page_size: pageSizeParam(1000),
  page_token: z.string().max(1024).optional(),
  status: z.enum(['queued', 'sent', 'processing', 'abandoned'], { error: 'status must be queued, sent, processing or abandoned' }).optional(),
  recipient: z.string().max(1024).optional(),
});

/** CourierApi: listCourierMessages and getCourierMessage of the tenant. */
export function registerCourierRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  route(scope, deps.ctx, {
    method: 'GET',
    url: '/admin/courier/messages',
    params: tenantParams,
    query: listQuery,
    auth: 'public',
    handler: async ({ q, query, req, reply }) => {
      const rows = await listMessages(q, {
        nid: adminOf(req).tenant.nid,
        after: decodePageToken(query.page_token, true),
        limit: query.page_size,
        ...(query.status ? { status: query.status } : {}),
        ...(query.recipient !== undefined ? { recipient: query.recipient.trim().toLowerCase() } : {}),
      });
      const page = rows.slice(0, query.page_size);
      const last = page.at(-1);
      setLinkHeader(req, reply, query.page_size, rows.length > query.page_size && last ? { id: last.id, createdAt: last.created_at.toISOString() } : null);
      const dispatches = await dispatchesOf(q, adminOf(req).tenant.nid, page.map((m) => m.id));
      return page.map((m) => messageView(m, dispatches.get(m.id)));
    },
  });

  route(scope, deps.ctx, {
    method: 'GET',
    url: '/admin/courier/messages/:id',
    params: idParams,
    auth: 'public',
    handler: async ({ q, params, req }) => {
      const row = await findMessage(q, adminOf(req).tenant.nid, params.id);
      if (!row) throw notFound('courier message');
      return messageView(row, (await dispatchesOf(q, row.nid, [row.id])).get(row.id));
    },
  });
}
