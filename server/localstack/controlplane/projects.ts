import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createProjectBody, setEnvironmentBody, setProjectBody } from './bodies';
import { badRequest } from './errors';
import { projectFor } from './guard';
import { createProjectFor } from './create-project';
import { parseBody, pathId, requireSession } from './http';
import { applyJsonPatch, jsonPatchSchema, touchedRoots } from './json-patch';
import { assertCurrentRevision, revisionFromDocument } from './revisions';
import {
  addRevision,
  deleteProject,
  findProject,
  findRevision,
  listReadableProjects,
  setEnvironment,
} from './store/projects';
import type { ControlPlaneContext } from './types';
import { projectDocument, projectMetadataView, projectView } from './views';

const PATCHABLE_ROOTS = ['name', 'services', 'cors_admin', 'cors_public'];

/** Projects in their full configuration form (ProjectApi of @ory/client). */
export function registerProjectRoutes(app: FastifyInstance, ctx: ControlPlaneContext): void {
  app.post('/projects', async (req, reply) => {
    const session = await requireSession(ctx, req);
    const body = parseBody(createProjectBody, req.body);
    const result = await ctx.db.tx(async (q) => {
      const project = await createProjectFor(q, session.identityId, body, {});
      return projectView(project, await findRevision(q, project.current_revision_id));
    });
    return reply.code(201).send(result);
  });

  app.get('/projects', async (req) => {
    const session = await requireSession(ctx, req);
    const rows = await listReadableProjects(ctx.db, session.identityId);
    return rows.map(projectMetadataView);
  });

  app.get('/projects/:project_id', async (req) => {
    const session = await requireSession(ctx, req);
    const { project } = await projectFor(ctx.db, session.identityId, pathId(req, 'project_id'), 'read');
    return projectView(project, await findRevision(ctx.db, project.current_revision_id));
  });

  app.put('/projects/:project_id', async (req) => {
    const session = await requireSession(ctx, req);
    const projectId = pathId(req, 'project_id');
    const body = parseBody(setProjectBody, req.body);
    return ctx.db.tx(async (q) => {
      const { project } = await projectFor(q, session.identityId, projectId, 'write', true);
      const current = await findRevision(q, project.current_revision_id);
      const next = await addRevision(q, project.id, revisionFromDocument(current, body));
      return { project: projectView((await findProject(q, project.id))!, next), warnings: [] };
    });
  });

  app.patch('/projects/:project_id', async (req) => patchConfiguration(ctx, req, false));
  app.patch('/projects/:project_id/revision/:revision_id', async (req) => patchConfiguration(ctx, req, true));

  app.delete('/projects/:project_id', async (req, reply) => {
    const session = await requireSession(ctx, req);
    const projectId = pathId(req, 'project_id');
    await ctx.db.tx(async (q) => {
      await projectFor(q, session.identityId, projectId, 'delete', true);
      await deleteProject(q, projectId);
    });
    return reply.code(204).send();
  });

  app.put('/projects/:project_id/environment', async (req) => {
    const session = await requireSession(ctx, req);
    const projectId = pathId(req, 'project_id');
    const body = parseBody(setEnvironmentBody, req.body);
    return ctx.db.tx(async (q) => {
      await projectFor(q, session.identityId, projectId, 'write', true);
      await setEnvironment(q, projectId, body.environment);
      const project = (await findProject(q, projectId))!;
      return projectView(project, await findRevision(q, project.current_revision_id));
    });
  });
}

/** PATCH with a JSON patch on the configuration; with a revision id the patch must be based on the current one. */
async function patchConfiguration(ctx: ControlPlaneContext, req: FastifyRequest, withRevision: boolean) {
  const session = await requireSession(ctx, req);
  const projectId = pathId(req, 'project_id');
  const revisionId = withRevision ? pathId(req, 'revision_id') : undefined;
  const patch = parseBody(jsonPatchSchema, req.body);
  const outside = touchedRoots(patch).filter((root) => !PATCHABLE_ROOTS.includes(root));
  if (outside.length > 0) {
    throw badRequest(
      `The path(s) /${outside.join(', /')} cannot be patched; patch /name, /services/…, /cors_admin or /cors_public.`,
    );
  }
  return ctx.db.tx(async (q) => {
    const { project } = await projectFor(q, session.identityId, projectId, 'write', true);
    if (revisionId) assertCurrentRevision(project, revisionId);
    const current = await findRevision(q, project.current_revision_id);
    const patched = applyJsonPatch(projectDocument(current), patch);
    const doc = parseBody(setProjectBody, patched, 'project configuration after the patch');
    const next = await addRevision(q, project.id, revisionFromDocument(current, doc));
    return { project: projectView((await findProject(q, project.id))!, next), warnings: [] };
  });
}
