import type { FastifyInstance } from 'fastify';
import { route, type RouteContext } from '../kernel/route';
import { actorId } from '../kernel/caller';
import { createNormalizedProjectBody, normalizedRevisionBody, projectIdParams, projectRevisionParams } from './bodies';
import { badRequest } from '../kernel/errors';
import { createProjectFor } from './service';
import { parseBody } from '../kernel/body';
import { applyJsonPatch, jsonPatchSchema, touchedRoots } from '../kernel/json-patch';
import { assertCurrentRevision, READ_ONLY_REVISION_FIELDS, storableFields } from './revisions';
import { addRevision, findProject, findRevision, type ProjectRow } from './store';
import { restoreFields } from './smtp-secret';
import { findWorkspace } from '../kernel/records';
import type { Queryable } from '../kernel/queryable';
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
export function registerNormalizedRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'POST',
    url: '/normalized/projects',
    body: createNormalizedProjectBody,
    auth: 'session-or-workspace-key',
    status: 201,
    handler: async ({ q, caller, body }) => {
      const fields = restoreFields(storableFields(body, ['environment', 'home_region', 'workspace_id']), {});
      return normalizedView(q, await createProjectFor(q, caller, body, fields, ctx.clock.now()));
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/normalized/projects/:project_id',
    params: projectIdParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    handler: async ({ q, project }) => normalizedView(q, project),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/normalized/projects/:project_id',
    params: projectIdParams,
    body: normalizedRevisionBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, body, caller }) => {
      const current = await findRevision(q, project.current_revision_id);
      await addRevision(q, project.id, { name: body.name, fields: restoreFields(storableFields(body), current.fields), services: current.services }, actorId(caller));
      return normalizedView(q, (await findProject(q, project.id))!);
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/normalized/projects/:project_id/revision/:revision_id',
    params: projectRevisionParams,
    body: jsonPatchSchema,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, params, body: patch, caller }) => {
      const readOnly = touchedRoots(patch).filter(
        (root) => root === '' || (root !== 'name' && (READ_ONLY_REVISION_FIELDS as readonly string[]).includes(root)),
      );
      if (readOnly.length > 0) {
        throw badRequest(`The path(s) /${readOnly.join(', /')} cannot be patched; they are set by the server.`);
      }
      assertCurrentRevision(project, params.revision_id);
      const current = await findRevision(q, project.current_revision_id);
      const patched = applyJsonPatch({ ...current.fields, name: current.name }, patch);
      const next = parseBody(normalizedRevisionBody, patched, 'project revision after the patch');
      await addRevision(q, project.id, { name: next.name, fields: restoreFields(storableFields(next), current.fields), services: current.services }, actorId(caller));
      return normalizedView(q, (await findProject(q, project.id))!);
    },
  });
}
