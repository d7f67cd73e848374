import type { FastifyInstance } from 'fastify';
import { createNormalizedProjectBody, normalizedRevisionBody } from './bodies';
import { badRequest } from './errors';
import { projectFor } from './guard';
import { createProjectFor } from './create-project';
import { parseBody, pathId, requireSession } from './http';
import { applyJsonPatch, jsonPatchSchema, touchedRoots } from './json-patch';
import { assertCurrentRevision, READ_ONLY_REVISION_FIELDS, storableFields } from './revisions';
import { addRevision, findProject, findRevision, type ProjectRow } from './store/projects';
import { findWorkspace } from './store/workspaces';
import type { ControlPlaneContext, Queryable } from './types';
import { normalizedProjectView } from './views';

async function normalizedView(q: Queryable, project: ProjectRow) {
  const revision = await findRevision(q, project.current_revision_id);
  const workspace = project.workspace_id ? await findWorkspace(q, project.workspace_id) : undefined;
  return normalizedProjectView(project, revision, workspace);
}

/**
 * Projects in normalized form: one flat revision per change. Fields this server does not interpret are
 * stored as given and returned on every read, so a client that sends back what it read loses nothing.
 */
export function registerNormalizedRoutes(app: FastifyInstance, ctx: ControlPlaneContext): void {
  app.post('/normalized/projects', async (req, reply) => {
    const session = await requireSession(ctx, req);
    const body = parseBody(createNormalizedProjectBody, req.body);
    const result = await ctx.db.tx(async (q) => {
      const project = await createProjectFor(q, session.identityId, body, storableFields(body, ['environment', 'home_region', 'workspace_id']));
      return normalizedView(q, project);
    });
    return reply.code(201).send(result);
  });

  app.get('/normalized/projects/:project_id', async (req) => {
    const session = await requireSession(ctx, req);
    const { project } = await projectFor(ctx.db, session.identityId, pathId(req, 'project_id'), 'read');
    return normalizedView(ctx.db, project);
  });

  app.put('/normalized/projects/:project_id', async (req) => {
    const session = await requireSession(ctx, req);
    const projectId = pathId(req, 'project_id');
    const body = parseBody(normalizedRevisionBody, req.body);
    return ctx.db.tx(async (q) => {
      const { project } = await projectFor(q, session.identityId, projectId, 'write', true);
      const current = await findRevision(q, project.current_revision_id);
      await addRevision(q, project.id, { name: body.name, fields: storableFields(body), services: current.services });
      return normalizedView(q, (await findProject(q, project.id))!);
    });
  });

  app.patch('/normalized/projects/:project_id/revision/:revision_id', async (req) => {
    const session = await requireSession(ctx, req);
    const projectId = pathId(req, 'project_id');
    const revisionId = pathId(req, 'revision_id');
    const patch = parseBody(jsonPatchSchema, req.body);
    const readOnly = touchedRoots(patch).filter(
      (root) => root === '' || (root !== 'name' && (READ_ONLY_REVISION_FIELDS as readonly string[]).includes(root)),
    );
    if (readOnly.length > 0) {
      throw badRequest(`The path(s) /${readOnly.join(', /')} cannot be patched; they are set by the server.`);
    }
    return ctx.db.tx(async (q) => {
      const { project } = await projectFor(q, session.identityId, projectId, 'write', true);
      assertCurrentRevision(project, revisionId);
      const current = await findRevision(q, project.current_revision_id);
      const patched = applyJsonPatch({ ...current.fields, name: current.name }, patch);
      const next = parseBody(normalizedRevisionBody, patched, 'project revision after the patch');
      await addRevision(q, project.id, { name: next.name, fields: storableFields(next), services: current.services });
      return normalizedView(q, (await findProject(q, project.id))!);
    });
  });
}
