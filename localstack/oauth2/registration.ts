import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientRepository } from './admin-routes';
import { badRequest, clientView, decodeClientBody, generateSecret, HydraError, invalidMetadata, newClientId, toStored, validateClient, type ClientBody } from './hydra-clients';
import type { StoredClient } from './storage';

/**
 * OpenID Connect Dynamic Client Registration (RFC 7591/7592) as Hydra serves it on its public API, behind
 * `oidc.dynamic_client_registration.enabled` (off by default): anyone may register a client at
 * `/oauth2/register`, and gets, once, a registration access token with which to read, replace or delete it at
 * `/oauth2/register/{id}`. Only a digest of that token is kept. The rules are Hydra's (client/handler.go and
 * ValidateDynamicRegistration in client/validator.go): no chosen id or secret, no metadata, no access-token
 * strategy, no skipped consent.
 */

/** What the registration routes need of the request's project. */
export interface RegistrationProject {
  enabled: boolean;
  /** Hydra's `oidc.dynamic_client_registration.default_scope`: the scope of a registration that names none. */
  defaultScope: string[] | null;
  clients: ClientRepository;
  subjectTypes: Array<'public' | 'pairwise'>;
  /** The project's public base, where `/oauth2/register/{id}` answers. */
  publicBase: string;
}

export interface RegistrationOptions {
  projectOf(req: FastifyRequest): Promise<RegistrationProject>;
  now(): Date;
}

/** Where the digest of a client's registration access token is kept in its JSON (never answered). */
const TOKEN_DIGEST = 'registration_access_token_signature';
const TOKEN_PREFIX = 'ory_at_';

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');
const newToken = () => `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
const stamp = (now: Date) => new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const notEnabled = () => new HydraError(404, 'Not Found', 'Dynamic registration is not enabled.');
const refused = () => new HydraError(401, 'Unauthorized', 'The requested OAuth 2.0 client does not exist or you provided incorrect credentials.');

/** Hydra's ValidateDynamicRegistration: what a self-registered client may not set. */
function checkDynamic(body: ClientBody) {
  if (body.metadata !== undefined && body.metadata !== null) throw invalidMetadata('"metadata" cannot be set for dynamic client registration');
  if (body.access_token_strategy) throw badRequest('It is not allowed to choose your own access token strategy.');
  if (body.skip_consent) throw new HydraError(400, 'invalid_request', '"skip_consent" cannot be set for dynamic client registration');
  if (body.skip_logout_consent) throw new HydraError(400, 'invalid_request', '"skip_logout_consent" cannot be set for dynamic client registration');
}

/** The body as JSON, or Hydra's 400 when it does not decode. */
function jsonBody(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw === '') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('Unable to decode the request body: it is not JSON.');
  }
}

/** A client's answer to its registrant: no secret unless given, no admin metadata, its management URI. */
function registrationView(client: StoredClient, extra: { secret?: string; token?: string }) {
  const { metadata: _metadata, ...view } = clientView(client, extra.secret);
  return { ...view, ...(extra.token ? { registration_access_token: extra.token } : {}) };
}

export function registerDynamicClients(scope: FastifyInstance, opts: RegistrationOptions): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  scope.setErrorHandler(async (err, _req, reply) => {
    if (err instanceof HydraError) return reply.code(err.status).send(err.body);
    throw err;
  });

  const enabledProject = async (req: FastifyRequest) => {
    const project = await opts.projectOf(req);
    if (!project.enabled) throw notEnabled();
    return project;
  };

  /** The client the request's registration access token belongs to, or Hydra's 401. */
  const authorized = async (req: FastifyRequest, project: RegistrationProject): Promise<StoredClient> => {
    const client = await project.clients.get((req.params as { id: string }).id);
    const header = req.headers.authorization ?? '';
    const token = /^bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
    const kept = client?.[TOKEN_DIGEST];
    if (!client || typeof kept !== 'string' || !token) throw refused();
    const given = Buffer.from(digest(token.startsWith(TOKEN_PREFIX) ? token : `${TOKEN_PREFIX}${token}`));
    const expected = Buffer.from(kept);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
    return client;
  };

  scope.post('/oauth2/register', async (req, reply) => {
    const project = await enabledProject(req);
    const body = decodeClientBody(jsonBody(req.body));
    if (body.client_secret) throw badRequest('It is not allowed to choose your own OAuth2 Client secret.');
    checkDynamic(body);
    // A registrant never chooses the client's id.
    const clientId = newClientId();
    const secret = generateSecret();
    const scopeValue = body.scope || (project.defaultScope?.length ? project.defaultScope.join(' ') : undefined);
    const valid = validateClient({ ...body, ...(scopeValue ? { scope: scopeValue } : {}), client_id: clientId, client_secret: secret }, { subjectTypes: project.subjectTypes });
    const token = newToken();
    const at = stamp(opts.now());
    const stored: StoredClient = {
      ...toStored(valid, at, at),
      registration_client_uri: `${project.publicBase}/oauth2/register/${encodeURIComponent(clientId)}`,
      [TOKEN_DIGEST]: digest(token),
    };
    if (!(await project.clients.insert(stored))) throw new HydraError(409, 'Unable to insert or update resource because a resource with that value exists already', '');
    reply.code(201).header('location', `${project.publicBase}/admin/clients/${encodeURIComponent(clientId)}`);
    return registrationView(stored, { secret: valid.token_endpoint_auth_method === 'none' ? undefined : secret, token });
  });

  scope.get('/oauth2/register/:id', async (req) => {
    const project = await enabledProject(req);
    return registrationView(await authorized(req, project), {});
  });

  scope.put('/oauth2/register/:id', async (req) => {
    const project = await enabledProject(req);
    const current = await authorized(req, project);
    const body = decodeClientBody(jsonBody(req.body));
    if (body.client_secret) throw new HydraError(403, 'Forbidden', 'It is not allowed to choose your own OAuth2 Client secret.');
    checkDynamic(body);
    const secret = typeof current.client_secret === 'string' ? current.client_secret : undefined;
    const valid = validateClient({ ...body, client_id: current.client_id, ...(secret ? { client_secret: secret } : {}) }, { subjectTypes: project.subjectTypes });
    // Every replacement hands out a new registration access token; the old one stops working.
    const token = newToken();
    const stored: StoredClient = {
      ...toStored(valid, String(current.created_at), stamp(opts.now())),
      registration_client_uri: current.registration_client_uri,
      [TOKEN_DIGEST]: digest(token),
    };
    if (!(await project.clients.replace(stored))) throw refused();
    return registrationView(stored, { token });
  });

  scope.delete('/oauth2/register/:id', async (req, reply) => {
    const project = await enabledProject(req);
    const client = await authorized(req, project);
    if (!(await project.clients.remove(client.client_id))) throw refused();
    return reply.code(204).send();
  });
}
