import jsonpatch, { type Operation } from 'fast-json-patch';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import {
  acceptConsent,
  acceptLogin,
  ChallengeError,
  getConsentRequest,
  getLoginRequest,
  rejectRequest,
  type ChallengeDeps,
} from './challenges';
import {
  badRequest,
  clientNotFound,
  clientView,
  decodeClientBody,
  generateSecret,
  HydraError,
  newClientId,
  toStored,
  validateClient,
} from './hydra-clients';
import { acceptDeviceRequest } from './device';
import { acceptLogoutRequest, getLogoutRequest, rejectLogoutRequest } from './logout';
import { registerOAuth2AdminExtras, requireSecretMethod, rotated } from './admin-extra-routes';
import type { ArtefactStore, KeySetRepository, StoredClient } from './storage';

/** A project's clients as the admin API reads and writes them, in `client_id` order. */
export interface ClientRepository {
  list(filter: { clientName?: string; owner?: string; after?: string; limit: number }): Promise<StoredClient[]>;
  get(clientId: string): Promise<StoredClient | null>;
  /** false when a client with this id exists already. */
  insert(client: StoredClient): Promise<boolean>;
  /** false when there is no such client. */
  replace(client: StoredClient): Promise<boolean>;
  /** false when there is no such client. */
  remove(clientId: string): Promise<boolean>;
}

/** What the admin routes need of the request's project. */
export interface AdminProject {
  clients: ClientRepository;
  subjectTypes: Array<'public' | 'pairwise'>;
  /** What the project's authorization server issued and keeps (grants, sessions), and its trusted issuers. */
  artefacts: ArtefactStore;
  /** The project's JSON Web Key sets. */
  keySets: KeySetRepository;
  /** The name of the set whose keys sign the project's tokens (only RS256 private keys go in it). */
  signingSet: string;
  /** The project's authorization server, for challenges and introspection. */
  server(): Promise<ChallengeDeps & { provider: Provider; publicBase: string }>;
}

export interface AdminOptions {
  /** Resolves (and authorizes) the request's project; throws the stack's own 401/404 otherwise. */
  projectOf(req: FastifyRequest): Promise<AdminProject>;
  /** Now, from the stack's clock. */
  now(): Date;
  /** A refusal of the stack (no credential, no permission) in Hydra's shape, or undefined to leave it to the stack. */
  translate?(err: unknown): HydraError | undefined;
}

const MAX_PAGE_SIZE = 1000;
const DEFAULT_PAGE_SIZE = 250;

const pageToken = {
  encode: (clientId: string) => Buffer.from(JSON.stringify({ i: clientId })).toString('base64url'),
  decode(token: string): string {
    try {
      const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { i?: unknown };
      if (typeof parsed.i === 'string') return parsed.i;
    } catch {
      // falls through to the refusal
    }
    throw badRequest('Unable to parse pagination parameters: the page_token is invalid: pass the page_token of a rel="next" Link of a previous answer.');
  },
};

const listQuery = z.object({
  page_size: z.string().optional(),
  page_token: z.string().optional(),
  client_name: z.string().optional(),
  owner: z.string().optional(),
});

const challengeQuery = (name: string) =>
  z.object({ [name]: z.string().optional() }).transform((q) => {
    const value = q[name];
    if (!value) throw badRequest(`The query parameter ${name} is required: pass the challenge the browser was sent with.`);
    return value;
  });

const acceptLoginBody = z.object({
  subject: z.string().min(1, 'Field subject must name the signed-in user.'),
  remember: z.boolean().optional(),
  remember_for: z.number().int().optional(),
  acr: z.string().optional(),
  amr: z.array(z.string()).optional(),
  context: z.unknown().optional(),
});

const acceptConsentBody = z.object({
  grant_scope: z.array(z.string()).optional(),
  grant_access_token_audience: z.array(z.string()).optional(),
  remember: z.boolean().optional(),
  remember_for: z.number().int().optional(),
  session: z
    .object({
      id_token: z.record(z.string(), z.unknown()).optional(),
      access_token: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

const acceptDeviceBody = z.object({ user_code: z.string().max(64, 'a user code has at most 64 characters').optional() });

const rejectBody = z.object({
  error: z.string().optional(),
  error_description: z.string().optional(),
  error_hint: z.string().optional(),
  error_debug: z.string().optional(),
  status_code: z.number().int().optional(),
});

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(`Unable to decode the request body: ${issue.path.length ? `field "${issue.path.join('.')}": ` : ''}${issue.message}`);
  }
  return parsed.data;
}

/** Hydra keeps times to the second. */
const stamp = (now: Date) => new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const sendHydraError = (reply: FastifyReply, err: HydraError) => reply.code(err.status).send(err.body);

/**
 * Hydra's admin API of a project, on the scope of its base: OAuth2 clients (list with keyset paging and a Link
 * header, create, get, set, patch, delete, rotate the secret), the login and consent requests of its
 * authorization server, and token introspection. Answers and refusals in Hydra's shapes.
 */
export function registerOAuth2Admin(scope: FastifyInstance, opts: AdminOptions): void {
  if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }
  if (!scope.hasContentTypeParser('application/json-patch+json')) scope.addContentTypeParser('application/json-patch+json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(badRequest('Unable to decode the request body: it is not JSON.'), undefined);
    }
  });
  scope.setErrorHandler(async (err, _req, reply) => {
    if (err instanceof HydraError) return sendHydraError(reply, err);
    const translated = opts.translate?.(err);
    if (translated) return sendHydraError(reply, translated);
    if (err instanceof ChallengeError) {
      const status = err.status === 410 ? 410 : err.status;
      return reply.code(status).send({ error: status === 404 ? 'Not Found' : status === 410 ? 'Gone' : 'invalid_request', error_description: err.message });
    }
    throw err;
  });

  scope.get('/admin/clients', async (req, reply) => {
    const project = await opts.projectOf(req);
    const q = listQuery.parse(req.query);
    const size = q.page_size === undefined || q.page_size === '' ? DEFAULT_PAGE_SIZE : Number(q.page_size);
    if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
      throw badRequest(`Unable to parse pagination parameters: page_size must be a whole number from 1 to ${MAX_PAGE_SIZE}.`);
    }
    const after = q.page_token ? pageToken.decode(q.page_token) : undefined;
    const rows = await project.clients.list({
      ...(q.client_name ? { clientName: q.client_name } : {}),
      ...(q.owner ? { owner: q.owner } : {}),
      ...(after !== undefined ? { after } : {}),
      limit: size + 1,
    });
    const page = rows.slice(0, size);
    const [path = '', search = ''] = req.url.split('?', 2);
    const link = (token: string | null) => {
      const params = new URLSearchParams(search);
      params.delete('page_token');
      params.set('page_size', String(size));
      if (token) params.set('page_token', token);
      return `<${path}?${params.toString()}>`;
    };
    const links = [`${link(null)}; rel="first"`];
    if (rows.length > size) links.push(`${link(pageToken.encode(page[page.length - 1]!.client_id))}; rel="next"`);
    reply.header('link', links.join(','));
    return page.map((c) => clientView(c));
  });

  scope.post('/admin/clients', async (req, reply) => {
    const project = await opts.projectOf(req);
    const body = decodeClientBody(req.body);
    const clientId = body.client_id || newClientId();
    const secret = body.client_secret || generateSecret();
    const valid = validateClient({ ...body, client_id: clientId, client_secret: secret }, { subjectTypes: project.subjectTypes });
    const at = stamp(opts.now());
    const stored = toStored(valid, at, at);
    if (!(await project.clients.insert(stored))) {
      throw new HydraError(409, 'Unable to insert or update resource because a resource with that value exists already', '');
    }
    reply.code(201).header('location', `${req.url.split('?')[0]}/${encodeURIComponent(clientId)}`);
    return clientView(stored, valid.token_endpoint_auth_method === 'none' ? undefined : secret);
  });

  scope.get('/admin/clients/:id', async (req) => {
    const project = await opts.projectOf(req);
    const client = await project.clients.get((req.params as { id: string }).id);
    if (!client) throw clientNotFound();
    return clientView(client);
  });

  scope.put('/admin/clients/:id', async (req) => {
    const project = await opts.projectOf(req);
    const id = (req.params as { id: string }).id;
    const body = decodeClientBody(req.body);
    const current = await project.clients.get(id);
    if (!current) throw clientNotFound();
    const secret = body.client_secret || (current.client_secret as string | undefined);
    const valid = validateClient({ ...body, client_id: id, ...(secret ? { client_secret: secret } : {}) }, { subjectTypes: project.subjectTypes });
    const stored = toStored(valid, String(current.created_at), stamp(opts.now()));
    if (!(await project.clients.replace(stored))) throw clientNotFound();
    return clientView(stored, body.client_secret || undefined);
  });

  scope.patch('/admin/clients/:id', async (req) => {
    const project = await opts.projectOf(req);
    const id = (req.params as { id: string }).id;
    const current = await project.clients.get(id);
    if (!current) throw clientNotFound();
    if (!Array.isArray(req.body)) throw badRequest('Unable to decode the request body: a JSON Patch is an array of operations.');
    const ops = req.body as Operation[];
    if (ops.some((op) => op && typeof op === 'object' && (op.path === '/client_id' || (op as { from?: string }).from === '/client_id'))) {
      throw badRequest("The JSON patch may not change client_id: create a new client instead.");
    }
    const invalid = jsonpatch.validate(ops, jsonpatch.deepClone(current));
    if (invalid) throw badRequest(`Unable to apply the JSON patch: ${invalid.message}`);
    const patched = jsonpatch.applyPatch(jsonpatch.deepClone(current), ops, false, false).newDocument as Record<string, unknown>;
    const body = decodeClientBody(patched);
    const secretChanged = body.client_secret !== current.client_secret;
    const valid = validateClient({ ...body, client_id: id }, { subjectTypes: project.subjectTypes });
    const stored = toStored(valid, String(current.created_at), stamp(opts.now()));
    if (!(await project.clients.replace(stored))) throw clientNotFound();
    return clientView(stored, secretChanged && body.client_secret ? body.client_secret : undefined);
  });

  scope.delete('/admin/clients/:id', async (req, reply) => {
    const project = await opts.projectOf(req);
    if (!(await project.clients.remove((req.params as { id: string }).id))) throw clientNotFound();
    return reply.code(204).send();
  });

  scope.post('/admin/clients/:id/secrets/rotate', async (req) => {
    const project = await opts.projectOf(req);
    const current = await project.clients.get((req.params as { id: string }).id);
    if (!current) throw clientNotFound();
    requireSecretMethod(current);
    const secret = generateSecret();
    const stored = rotated(current, secret, stamp(opts.now()));
    if (!(await project.clients.replace(stored))) throw clientNotFound();
    return clientView(stored, secret);
  });

  // Login and consent requests of the project's authorization server.
  for (const prompt of ['login', 'consent'] as const) {
    const challenge = challengeQuery(`${prompt}_challenge`);
    scope.get(`/admin/oauth2/auth/requests/${prompt}`, async (req) => {
      const server = await (await opts.projectOf(req)).server();
      const id = parse(challenge, req.query);
      return prompt === 'login' ? getLoginRequest(server, id) : getConsentRequest(server, id);
    });
    scope.put(`/admin/oauth2/auth/requests/${prompt}/accept`, async (req) => {
      const server = await (await opts.projectOf(req)).server();
      const id = parse(challenge, req.query);
      return prompt === 'login'
        ? acceptLogin(server, id, parse(acceptLoginBody, req.body))
        : acceptConsent(server, id, parse(acceptConsentBody, req.body));
    });
    scope.put(`/admin/oauth2/auth/requests/${prompt}/reject`, async (req) => {
      const server = await (await opts.projectOf(req)).server();
      return rejectRequest(server, parse(challenge, req.query), prompt, parse(rejectBody, req.body));
    });
  }

  // Logout requests (logout.ts): Hydra reads the challenge from `logout_challenge` or `challenge`, and an unknown
  // one is simply not found.
  const logoutChallenge = (req: FastifyRequest) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const value = q.logout_challenge || q.challenge;
    return typeof value === 'string' ? value : '';
  };
  scope.get('/admin/oauth2/auth/requests/logout', async (req) => getLogoutRequest(await (await opts.projectOf(req)).server(), logoutChallenge(req)));
  scope.put('/admin/oauth2/auth/requests/logout/accept', async (req) => {
    const server = await (await opts.projectOf(req)).server();
    return acceptLogoutRequest(server, logoutChallenge(req), server.publicBase);
  });
  scope.put('/admin/oauth2/auth/requests/logout/reject', async (req, reply) => {
    await rejectLogoutRequest(await (await opts.projectOf(req)).server(), logoutChallenge(req));
    return reply.code(204).send();
  });

  // Device requests (device.ts): the device verification page accepts its challenge with the user code it was given.
  scope.put('/admin/oauth2/auth/requests/device/accept', async (req) => {
    const server = await (await opts.projectOf(req)).server();
    const q = (req.query ?? {}) as Record<string, unknown>;
    const body = parse(acceptDeviceBody, req.body);
    return acceptDeviceRequest(server, typeof q.device_challenge === 'string' ? q.device_challenge : '', body.user_code ?? '', server.publicBase);
  });

  registerOAuth2AdminExtras(scope, opts);

  scope.post('/admin/oauth2/introspect', async (req) => {
    const server = await (await opts.projectOf(req)).server();
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = typeof body.token === 'string' ? body.token : '';
    if (!token) throw new HydraError(400, 'invalid_request', 'The request is missing a required parameter: token.');
    return introspect(server.provider, token);
  });
}

/** Hydra's introspection answer for any token of the project (no client authentication: this is the admin API). */
async function introspect(provider: Provider, token: string): Promise<Record<string, unknown>> {
  const models = [
    ['access_token', provider.AccessToken],
    ['access_token', provider.ClientCredentials],
    ['refresh_token', provider.RefreshToken],
  ] as const;
  for (const [use, Model] of models) {
    const found = (await (Model as unknown as { find(t: string): Promise<Record<string, unknown> | undefined> }).find(token)) as
      | (Record<string, unknown> & { isValid?: boolean; scope?: string; accountId?: string; clientId?: string; exp?: number; iat?: number; aud?: unknown })
      | undefined;
    if (!found || found.isValid === false) continue;
    return {
      active: true,
      client_id: found.clientId,
      sub: found.accountId ?? found.clientId,
      scope: found.scope ?? '',
      exp: found.exp,
      iat: found.iat,
      iss: provider.issuer,
      token_type: 'Bearer',
      token_use: use,
      ...(found.aud ? { aud: Array.isArray(found.aud) ? found.aud : [found.aud] } : {}),
    };
  }
  return { active: false };
}
