import { assertProductionRoom, assertRoomFor } from '../billing/quota';
import { configAt, type JsonObject } from '../kernel/tenant-config';
import type { FastifyInstance } from 'fastify';
import { route, type RouteContext } from '../kernel/route';
import { actorId } from '../kernel/caller';
import { createProjectBody, projectIdParams, projectRevisionParams, setEnvironmentBody, setProjectBody } from './bodies';
import { badRequest } from '../kernel/errors';
import { createProjectFor } from './service';
import { parseBody } from '../kernel/body';
import { applyJsonPatch, jsonPatchSchema, touchedRoots, type JsonPatch } from '../kernel/json-patch';
import { assertCurrentRevision, revisionFromDocument } from './revisions';
import { addRevision, deleteProject, findProject, findRevision, listReadableProjects, listWorkspaceProjects, setEnvironment, type ProjectRow } from './store';
import type { Queryable } from '../kernel/queryable';
import { projectDocument, projectMetadataView, projectView } from './views';
import { projectListOutput, projectSchema } from '../../shared/schemas/project';

const PATCHABLE_ROOTS = ['name', 'services', 'cors_admin', 'cors_public'];

/** Projects in their full configuration form (ProjectApi of @ory/client). */
/** A check of a configuration about to be stored, against the one it replaces (400 for what the stack cannot serve). */
export type ServicesCheck = (previous: unknown, next: unknown) => Promise<void>;

export function registerProjectRoutes(scope: FastifyInstance, ctx: RouteContext, checkServices: ServicesCheck = async () => undefined): void {
  route(scope, ctx, {
    method: 'POST',
    url: '/projects',
    body: createProjectBody,
    auth: 'session-or-workspace-key',
    status: 201,
    response: projectSchema,
    handler: async ({ q, caller, body }) => {
      const project = await createProjectFor(q, caller, body, {}, ctx.clock.now());
      return projectView(project, await findRevision(q, project.current_revision_id));
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects',
    auth: 'session-or-workspace-key',
    response: projectListOutput,
    handler: async ({ q, caller }) => {
      const rows =
        caller.kind === 'session'
          ? await listReadableProjects(q, caller.identityId)
          : await listWorkspaceProjects(q, caller.workspaceId);
      return rows.map(projectMetadataView);
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id',
    params: projectIdParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: projectSchema,
    handler: async ({ q, project }) => projectView(project, await findRevision(q, project.current_revision_id)),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/projects/:project_id',
    params: projectIdParams,
    body: setProjectBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, body, caller }) => {
      const current = await findRevision(q, project.current_revision_id);
      await checkServices(current.services, body.services);
      await assertSamlRoom(q, project, current.services, body.services, ctx.clock.now());
      const next = await addRevision(q, project.id, revisionFromDocument(current, body), actorId(caller));
      return { project: projectView((await findProject(q, project.id))!, next), warnings: [] };
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/projects/:project_id',
    params: projectIdParams,
    body: jsonPatchSchema,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, body, caller }) => patchConfiguration(q, project, body, actorId(caller), checkServices, ctx.clock.now()),
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/projects/:project_id/revision/:revision_id',
    params: projectRevisionParams,
    body: jsonPatchSchema,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, params, body, caller }) => {
      assertCurrentRevision(project, params.revision_id);
      return patchConfiguration(q, project, body, actorId(caller), checkServices, ctx.clock.now());
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/projects/:project_id',
    params: projectIdParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.delete',
    status: 204,
    handler: async ({ q, project }) => deleteProject(q, project.id),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/projects/:project_id/environment',
    params: projectIdParams,
    body: setEnvironmentBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, body }) => {
      if (body.environment === 'prod') await assertProductionRoom(q, project, ctx.clock.now());
      await setEnvironment(q, project.id, body.environment);
      const updated = (await findProject(q, project.id))!;
      return projectView(updated, await findRevision(q, updated.current_revision_id));
    },
  });
}

/** A JSON patch on the configuration: only the editable roots, and the result must still be a valid configuration. */
/** SAML providers in a configuration's `services.identity.config.selfservice.methods.saml.config.providers`. */
function samlProviderCount(services: unknown): number {
  const list = configAt((services ?? {}) as JsonObject, 'identity', 'config', 'selfservice', 'methods', 'saml', 'config', 'providers');
  return Array.isArray(list) ? list.length : 0;
}

/** One more SAML provider needs the plan's `saml_sp` (spec §9); removing or editing one needs nothing. */
async function assertSamlRoom(q: Queryable, project: ProjectRow, previous: unknown, next: unknown, now: Date): Promise<void> {
  if (samlProviderCount(next) > samlProviderCount(previous)) await assertRoomFor(q, { kind: 'project', project }, 'saml_sp', 'SAML sign-in', now);
}

async function patchConfiguration(q: Queryable, project: ProjectRow, patch: JsonPatch, author: string, checkServices: ServicesCheck, now: Date) {
  const outside = touchedRoots(patch).filter((root) => !PATCHABLE_ROOTS.includes(root));
  if (outside.length > 0) {
    throw badRequest(
      `The path(s) /${outside.join(', /')} cannot be patched; patch /name, /services/…, /cors_admin or /cors_public.`,
    );
  }
  const current = await findRevision(q, project.current_revision_id);
  const patched = applyJsonPatch(projectDocument(current), patch);
  const doc = parseBody(setProjectBody, patched, 'project configuration after the patch');
  await checkServices(current.services, doc.services);
  await assertSamlRoom(q, project, current.services, doc.services, now);
  const next = await addRevision(q, project.id, revisionFromDocument(current, doc), author);
  return { project: projectView((await findProject(q, project.id))!, next), warnings: [] };
}
