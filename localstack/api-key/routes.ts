import type { FastifyInstance } from 'fastify';
import { route, type RouteContext } from '../kernel/route';
import { createApiKeyBody, projectRefParams, projectTokenParams, workspaceParams, workspaceTokenParams } from '../project/bodies';
import { actorId } from '../kernel/caller';
import type { Caller } from '../kernel/caller';
import { forbidden, notFound } from '../kernel/errors';
import {
  createProjectApiKey,
  createWorkspaceApiKey,
  deleteProjectApiKey,
  deleteWorkspaceApiKey,
  listProjectApiKeys,
  listWorkspaceApiKeys,
} from './store';
import { projectApiKeyView, workspaceApiKeyView } from './views';

const expiry = (at: string | null | undefined) => (at ? new Date(at) : null);

/** A key never mints keys: a leaked key would otherwise outlive its own deletion through the keys it made. */
function assertSignedIn(caller: Caller): void {
  if (caller.kind !== 'session') {
    throw forbidden('An API key cannot create API keys. Sign in to the console as an owner to create one.');
  }
}

/**
 * API keys (spec §7 token calls): members may list a project's or workspace's keys, owners create and
 * delete them. The secret is answered once, on creation; only its hash is kept.
 */
export function registerApiKeyRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/tokens',
    params: projectRefParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    handler: async ({ q, project }) => (await listProjectApiKeys(q, project.id)).map((row) => projectApiKeyView(row)),
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project/tokens',
    params: projectRefParams,
    body: createApiKeyBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.owner',
    status: 201,
    handler: async ({ q, project, body, caller }) => {
      assertSignedIn(caller);
      const key = { name: body.name, expiresAt: expiry(body.expires_at), ownerId: actorId(caller) };
      const { row, value } = await createProjectApiKey(q, project.id, key);
      return projectApiKeyView(row, value);
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/projects/:project/tokens/:token_id',
    params: projectTokenParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.owner',
    status: 204,
    handler: async ({ q, project, params }) => {
      if (!(await deleteProjectApiKey(q, project.id, params.token_id))) {
        throw notFound(`Project ${project.id} has no API key ${params.token_id}.`);
      }
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/tokens',
    params: workspaceParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    handler: async ({ q, workspace }) =>
      (await listWorkspaceApiKeys(q, workspace.id)).map((row) => workspaceApiKeyView(row)),
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/workspaces/:workspace/tokens',
    params: workspaceParams,
    body: createApiKeyBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.owner',
    status: 201,
    handler: async ({ q, workspace, body, caller }) => {
      assertSignedIn(caller);
      const key = { name: body.name, expiresAt: expiry(body.expires_at), ownerId: actorId(caller) };
      const { row, value } = await createWorkspaceApiKey(q, workspace.id, key);
      return workspaceApiKeyView(row, value);
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/workspaces/:workspace/tokens/:token_id',
    params: workspaceTokenParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.owner',
    status: 204,
    handler: async ({ q, workspace, params }) => {
      if (!(await deleteWorkspaceApiKey(q, workspace.id, params.token_id))) {
        throw notFound(`Workspace ${workspace.id} has no API key ${params.token_id}.`);
      }
    },
  });
}
