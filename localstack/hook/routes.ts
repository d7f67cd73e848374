import type { FastifyInstance } from 'fastify';
import { and, desc, eq, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { hookCallLogQuery, hookCallLogSchema } from '../../shared/schemas/actions';
import type { LocalStackContext } from '../kernel/context';
import { badRequest } from '../kernel/errors';
import { encodePageToken, readPageToken } from '../kernel/page-token';
import { route } from '../kernel/route';
import { identityHookCalls } from './schema';

const projectParams = z.object({ project_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });

/** The log of a project's identity web hook calls, newest first (the local stack's own call; Ory has none). */
export function registerHookRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/identity-hooks/calls',
    params: projectParams,
    query: hookCallLogQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: hookCallLogSchema,
    handler: async ({ q, project, query }) => {
      const cursor = readPageToken(query.page_token, true);
      if (cursor === 'invalid') throw badRequest('The page_token is invalid; pass the next_page_token of a previous answer.');
      const limit = query.page_size ?? 25;
      const where = [eq(identityHookCalls.project_id, project.id)];
      if (cursor) {
        const at = new Date(cursor.createdAt!);
        where.push(or(lt(identityHookCalls.at, at), and(eq(identityHookCalls.at, at), lt(identityHookCalls.id, cursor.id)))!);
      }
      const rows = await q.orm.select().from(identityHookCalls).where(and(...where)).orderBy(desc(identityHookCalls.at), desc(identityHookCalls.id)).limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        calls: page.map((r) => ({
          id: r.id,
          flow: r.flow,
          timing: r.phase,
          method: r.auth_method,
          hook: r.hook_path,
          url: r.url,
          http_method: r.http_method,
          status: r.status,
          response_code: r.response_code,
          latency_ms: r.latency_ms,
          interrupted: r.interrupted,
          error: r.error,
          at: r.at.toISOString(),
        })),
        ...(rows.length > limit && last ? { next_page_token: encodePageToken({ id: last.id, createdAt: last.at.toISOString() }) } : {}),
      };
    },
  });
}
