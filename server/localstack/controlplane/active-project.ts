import type { FastifyInstance } from 'fastify';
import { activeProjectBody } from './bodies';
import { projectFor } from './guard';
import { parseBody, requireSession } from './http';
import { nowIso } from './store/time';
import type { ControlPlaneContext } from './types';

/**
 * The project the console opens by default. A selection the caller can no longer read (removed from
 * the project or its workspace) reads as none; a purged project's selection is deleted with it.
 */
export function registerActiveProjectRoutes(app: FastifyInstance, ctx: ControlPlaneContext): void {
  app.get('/console/active/project', async (req) => {
    const session = await requireSession(ctx, req);
    const rows = await ctx.db.query<{ project_id: string }>(
      `SELECT a.project_id FROM console_active_project a
       JOIN projects p ON p.id = a.project_id
       WHERE a.identity_id = $1 AND (
         EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = p.id AND m.identity_id = $1)
         OR EXISTS (SELECT 1 FROM workspace_members w WHERE w.workspace_id = p.workspace_id AND w.identity_id = $1))`,
      [session.identityId],
    );
    // activeProjectInConsole.project_id is a string: no selection leaves it out (never null).
    return rows[0] ? { project_id: rows[0].project_id } : {};
  });

  // setActiveProjectInConsole answers 204 without a body.
  app.put('/console/active/project', async (req, reply) => {
    const session = await requireSession(ctx, req);
    const body = parseBody(activeProjectBody, req.body);
    const projectId = body.project_id.toLowerCase();
    await ctx.db.tx(async (q) => {
      await projectFor(q, session.identityId, projectId, 'read');
      await q.query(
        `INSERT INTO console_active_project (identity_id, project_id, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (identity_id) DO UPDATE SET project_id = EXCLUDED.project_id, updated_at = EXCLUDED.updated_at`,
        [session.identityId, projectId, nowIso()],
      );
    });
    return reply.code(204).send();
  });
}
