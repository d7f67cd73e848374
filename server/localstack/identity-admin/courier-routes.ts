import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseQuery, pathId } from '../controlplane/http';
import { adminRequest, type AdminDeps } from './context';
import { findMessage, listMessages } from './courier-store';
import { messageView } from './courier-view';
import { notFound } from './errors';
import { decodePageToken, pageSizeParam, setLinkHeader } from './paging';

const listQuery = z.object({
  page_size: pageSizeParam(1000),
  page_token: z.string().max(1024).optional(),
  status: z.enum(['queued', 'sent', 'processing', 'abandoned'], { error: 'status must be queued, sent, processing or abandoned' }).optional(),
  recipient: z.string().max(1024).optional(),
});

/** CourierApi: listCourierMessages and getCourierMessage of the tenant. */
export function registerCourierRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  scope.get('/admin/courier/messages', async (req, reply) => {
    const { tenant } = await adminRequest(deps, req);
    const query = parseQuery(listQuery, req.query);
    const rows = await listMessages(deps.ctx.db, {
      nid: tenant.nid,
      after: decodePageToken(query.page_token, true),
      limit: query.page_size,
      ...(query.status ? { status: query.status } : {}),
      ...(query.recipient !== undefined ? { recipient: query.recipient.trim().toLowerCase() } : {}),
    });
    const page = rows.slice(0, query.page_size);
    const last = page.at(-1);
    setLinkHeader(req, reply, query.page_size, rows.length > query.page_size && last ? { id: last.id, createdAt: last.created_at.toISOString() } : null);
    return page.map(messageView);
  });

  scope.get('/admin/courier/messages/:id', async (req) => {
    const { tenant } = await adminRequest(deps, req);
    const row = await findMessage(deps.ctx.db, tenant.nid, pathId(req, 'id'));
    if (!row) throw notFound('courier message');
    return messageView(row);
  });
}
