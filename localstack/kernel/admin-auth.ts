import type { FastifyRequest } from 'fastify';
import { authenticateApiKey } from './api-key-verify';
import { isAllowed, projectRole } from './roles';
import type { Queryable } from './queryable';
import { apiKeyRequired, csrfViolation, forbidden } from './errors';
import { consoleCaller, SESSION_COOKIE } from './session-token';
import type { ProjectRow } from './tables';

/** Who called an admin path: the project's API key, or a member of the project signed in to the console. */
export type AdminCaller = { kind: 'api_key'; keyId: string } | { kind: 'member'; identityId: string };

/** Reads need `backoffice.project.read`, every other method `backoffice.project.write` (spec §6). */
export const permissionFor = (method: string) =>
  method === 'GET' || method === 'HEAD' ? 'backoffice.project.read' : 'backoffice.project.write';

/**
 * Authorizes a call to a project's admin API. With an Authorization header, only a live `ory_pat_` key of
 * this very project passes (any other value, a key of another project included, is 401: to this project
 * it is no credential). Without one, the console's session cookie must belong to a member of the project
 * whose role grants the permission the method needs, or the one the route names (a check sent as POST is a
 * read), 403 otherwise. A session of the project's own
 * end users is not a console session and never passes. Cookie-authenticated writes sent by a browser from
 * another origin are refused as cross-site request forgery.
 */
export async function authorizeAdmin(
  q: Queryable,
  req: FastifyRequest,
  project: ProjectRow,
  now: Date,
  permission: 'backoffice.project.read' | 'backoffice.project.write' = permissionFor(req.method),
): Promise<AdminCaller> {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const key = await authenticateApiKey(q, authorization, now);
    if (key?.kind === 'project' && key.projectId === project.id) return { kind: 'api_key', keyId: key.keyId };
    throw apiKeyRequired();
  }
  const identityId = (await consoleCaller(q, req.cookies?.[SESSION_COOKIE], now))?.identityId;
  if (!identityId) throw apiKeyRequired();
  const role = await projectRole(q, identityId, project);
  if (!role) throw forbidden('You are not a member of this project.');
  if (!isAllowed(role, permission)) throw forbidden(`Your role on this project does not grant ${permission}.`);
  if (permission === 'backoffice.project.write' && crossOrigin(req)) throw csrfViolation('tokenMismatch');
  return { kind: 'member', identityId };
}

/** A browser's write from a page of another origin (server-side callers such as the BFF send no Origin). */
function crossOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}
