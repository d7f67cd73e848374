import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair, generateSecret as generateSymmetricKey } from 'jose';
import { z } from 'zod';
import type { AdminOptions, AdminProject } from './admin-routes';
import { withoutSecret } from './challenges';
import { badRequest, clientNotFound, clientView, HydraError, LIFESPAN_FIELDS } from './hydra-clients';
import { TRUSTED_ISSUER } from './jwt-bearer';
import { CONSENT_SESSION } from './provider';
import { parseDuration } from './settings';
import type { StoredClient, StoredJwk } from './storage';

/**
 * The rest of Hydra's admin API of a project, read from Hydra's handlers: a client's token lifespans and its
 * rotated secrets, consent and login sessions, JSON Web Key sets and trusted JWT-grant issuers. Same scope, same
 * error shapes as the client routes.
 */

export { TRUSTED_ISSUER };

/** The secret-based methods, the only ones whose secret Hydra rotates. */
const SECRET_METHODS = ['client_secret_basic', 'client_secret_post'];
/** Hydra keeps the five most recent rotated secrets. */
const KEPT_ROTATED = 5;
const KEY_ALGS = ['RS256', 'ES256', 'ES512', 'HS256', 'HS512'] as const;
const PRIVATE_FIELDS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];
const DEFAULT_PAGE_SIZE = 250;

const notFound = () => new HydraError(404, 'Not Found', 'Unable to locate the requested resource');
const invalidRequest = (hint: string) =>
  new HydraError(400, 'invalid_request', `The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed. ${hint}`);
const stamp = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
const iso = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : undefined);

const methodOf = (c: StoredClient) => (typeof c.token_endpoint_auth_method === 'string' && c.token_endpoint_auth_method) || 'client_secret_basic';

function requireSecretMethod(c: StoredClient) {
  const method = methodOf(c);
  if (!SECRET_METHODS.includes(method)) {
    throw badRequest(`The client is configured to use the '${method}' authentication method, which does not support client secret rotation.`);
  }
}

function decode<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(`Unable to decode the request body: ${issue.path.length ? `field "${issue.path.join('.')}": ` : ''}${issue.message}`);
  }
  return parsed.data;
}

const lifespansBody = z.object(Object.fromEntries(LIFESPAN_FIELDS.map((f) => [f, z.string().nullish()])) as Record<(typeof LIFESPAN_FIELDS)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>);

const jwkBody = z.looseObject({ kty: z.string().min(1, 'a JSON Web Key names its kty'), kid: z.string().optional() });
const keySetBody = z.object({ keys: z.array(jwkBody).max(100, 'a set has at most 100 keys').optional() });
const createKeySetBody = z.object({ alg: z.string().optional(), use: z.string().optional(), kid: z.string().optional() });
const trustBody = z.object({
  issuer: z.string().optional(),
  subject: z.string().optional(),
  allow_any_subject: z.boolean().optional(),
  scope: z.array(z.string()).optional(),
  expires_at: z.string().optional(),
  jwk: jwkBody.optional(),
});

/** A key with its private parts left out (what the console ever shows). */
export const publicJwk = (key: StoredJwk) => Object.fromEntries(Object.entries(key).filter(([k]) => !PRIVATE_FIELDS.includes(k)));

/** A key as Hydra's key-set answers carry it: symmetric keys whole, asymmetric ones as stored (the admin API is trusted). */
const keyView = (key: StoredJwk) => ({ ...key });

async function generateKey(alg: string, use: string, kid: string): Promise<StoredJwk> {
  if (!(KEY_ALGS as readonly string[]).includes(alg)) {
    throw badRequest(`The algorithm '${alg}' is not supported: choose one of ${KEY_ALGS.join(', ')}.`);
  }
  if (use !== 'sig' && use !== 'enc') throw badRequest(`The use '${use}' is not supported: choose sig or enc.`);
  if (alg.startsWith('HS')) {
    const secret = await generateSymmetricKey(alg, { extractable: true });
    return { ...(await exportJWK(secret)), kid, alg, use } as StoredJwk;
  }
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  return { ...(await exportJWK(privateKey)), kid, alg, use } as StoredJwk;
}

/** Hydra's consent session of an oidc-provider grant. */
function consentSessionView(grant: Record<string, unknown>, client: StoredClient | null, session: Record<string, unknown> | undefined) {
  const openid = (grant.openid ?? {}) as { scope?: string };
  const resources = (grant.resources ?? {}) as Record<string, string>;
  const scopes = [...new Set([...(openid.scope ?? '').split(' '), ...Object.values(resources).flatMap((s) => s.split(' '))].filter(Boolean))];
  const audience = Object.keys(resources);
  const id = String(grant.jti ?? '');
  const rememberFor = typeof grant.exp === 'number' && typeof grant.iat === 'number' ? grant.exp - grant.iat : 0;
  return {
    consent_request: {
      challenge: id,
      client: client ? clientView(withoutSecret(client)) : { client_id: String(grant.clientId ?? '') },
      subject: String(grant.accountId ?? ''),
      requested_scope: scopes,
      requested_access_token_audience: audience,
      skip: false,
      oidc_context: {},
    },
    consent_request_id: id,
    grant_scope: scopes,
    grant_access_token_audience: audience,
    handled_at: iso(grant.iat),
    remember: true,
    remember_for: rememberFor,
    session: {
      id_token: (session?.id_token as Record<string, unknown> | undefined) ?? {},
      access_token: (session?.access_token as Record<string, unknown> | undefined) ?? {},
    },
    context: {},
  };
}

function pageParams(query: unknown) {
  const q = (query ?? {}) as Record<string, string | undefined>;
  const size = q.page_size === undefined || q.page_size === '' ? DEFAULT_PAGE_SIZE : Number(q.page_size);
  if (!Number.isInteger(size) || size < 1 || size > 1000) throw badRequest('Unable to parse pagination parameters: page_size must be a whole number from 1 to 1000.');
  let offset = 0;
  if (q.page_token) {
    try {
      offset = Number((JSON.parse(Buffer.from(q.page_token, 'base64url').toString('utf8')) as { o?: unknown }).o);
    } catch {
      offset = Number.NaN;
    }
    if (!Number.isInteger(offset) || offset < 0) throw badRequest('Unable to parse pagination parameters: the page_token is invalid: pass the page_token of a rel="next" Link of a previous answer.');
  }
  return { size, offset };
}

/** One page of `items` with Hydra's `Link` header (first, and next while there are more). */
function paged<T>(req: FastifyRequest, reply: { header(name: string, value: string): unknown }, items: T[]): T[] {
  const { size, offset } = pageParams(req.query);
  const [path = '', search = ''] = req.url.split('?', 2);
  const link = (next: number | null) => {
    const params = new URLSearchParams(search);
    params.delete('page_token');
    params.set('page_size', String(size));
    if (next !== null) params.set('page_token', Buffer.from(JSON.stringify({ o: next })).toString('base64url'));
    return `<${path}?${params.toString()}>`;
  };
  const links = [`${link(null)}; rel="first"`];
  if (items.length > offset + size) links.push(`${link(offset + size)}; rel="next"`);
  reply.header('link', links.join(','));
  return items.slice(offset, offset + size);
}

const queryOf = (req: FastifyRequest) => (req.query ?? {}) as Record<string, string | undefined>;

export function registerOAuth2AdminExtras(scope: FastifyInstance, opts: AdminOptions): void {
  const clientOf = async (project: AdminProject, id: string) => {
    const client = await project.clients.get(id);
    if (!client) throw clientNotFound();
    return client;
  };

  // A client's own token lifespans: the body replaces all of them (a field left out is unset).
  scope.put('/admin/clients/:id/lifespans', async (req) => {
    const project = await opts.projectOf(req);
    const current = await clientOf(project, (req.params as { id: string }).id);
    const body = decode(lifespansBody, req.body);
    const next: StoredClient = { ...current, updated_at: stamp(opts.now()) };
    for (const field of LIFESPAN_FIELDS) {
      const value = body[field];
      if (value === undefined || value === null || value === '') {
        delete next[field];
        continue;
      }
      if (parseDuration(value) === null) throw badRequest(`Unable to decode the request body: field "${field}": write a duration such as 1h, 30m or 1h30m.`);
      next[field] = value;
    }
    if (!(await project.clients.replace(next))) throw clientNotFound();
    return clientView(next);
  });

  // Secrets a rotation replaced stay valid until they are deleted here.
  scope.delete('/admin/clients/:id/secrets/rotate', async (req) => {
    const project = await opts.projectOf(req);
    const current = await clientOf(project, (req.params as { id: string }).id);
    requireSecretMethod(current);
    const { rotated_secrets: _rotated, ...rest } = current;
    const next = { ...rest, updated_at: stamp(opts.now()) } as StoredClient;
    if (!(await project.clients.replace(next))) throw clientNotFound();
    return clientView(next);
  });

  // Consent sessions: the grants a subject gave, newest first.
  scope.get('/admin/oauth2/auth/sessions/consent', async (req, reply) => {
    const q = queryOf(req);
    if (!q.subject) throw invalidRequest("The query parameter 'subject' is required: name the user whose consent sessions to list.");
    const server = await opts.projectOf(req);
    const nowSeconds = Math.floor(opts.now().getTime() / 1000);
    const grants = (await server.artefacts.listByPayload('Grant', { field: 'accountId', value: q.subject }))
      .filter((g) => g.expiresAt === null || g.expiresAt > nowSeconds)
      .sort((a, b) => Number(b.payload.iat ?? 0) - Number(a.payload.iat ?? 0) || a.id.localeCompare(b.id));
    const page = paged(req, reply, grants);
    return Promise.all(
      page.map(async (g) => {
        const [client, session] = await Promise.all([server.clients.get(String(g.payload.clientId ?? '')), server.artefacts.find(CONSENT_SESSION, g.id)]);
        return consentSessionView({ ...g.payload, jti: g.id }, client, session?.payload);
      }),
    );
  });

  scope.delete('/admin/oauth2/auth/sessions/consent', async (req, reply) => {
    const { subject = '', client = '', consent_request_id: requestId = '', all } = queryOf(req);
    const allClients = all === 'true';
    const server = await opts.projectOf(req);
    let grantIds: string[];
    if (requestId && !subject && !client) grantIds = [requestId];
    else if (!requestId && subject && client && !allClients) {
      grantIds = (await server.artefacts.listByPayload('Grant', { field: 'accountId', value: subject })).filter((g) => g.payload.clientId === client).map((g) => g.id);
    } else if (!requestId && subject && !client && allClients) {
      grantIds = (await server.artefacts.listByPayload('Grant', { field: 'accountId', value: subject })).map((g) => g.id);
    } else throw invalidRequest('Invalid combination of query parameters.');
    for (const id of grantIds) {
      // The grant goes with every token, code and consent session issued under it.
      await server.artefacts.revokeByGrantId(id);
      await server.artefacts.destroy('Grant', id);
    }
    return reply.code(204).send();
  });

  // Login sessions: a subject's (or one session's) remembered sign-ins end, so the next authorization asks again.
  scope.delete('/admin/oauth2/auth/sessions/login', async (req, reply) => {
    const { subject, sid } = queryOf(req);
    if (!subject && !sid) throw invalidRequest("Either 'subject' or 'sid' query parameters need to be defined.");
    const server = await opts.projectOf(req);
    const sessions = sid
      ? (await server.artefacts.listByPayload('Session', { field: 'uid', value: sid }))
      : await server.artefacts.listByPayload('Session', { field: 'accountId', value: subject! });
    if (sid && sessions.length === 0) throw notFound();
    for (const s of sessions) await server.artefacts.destroy('Session', s.id);
    return reply.code(204).send();
  });

  // JSON Web Key sets.
  const setOf = (req: FastifyRequest) => (req.params as { set: string }).set;
  scope.get('/admin/keys/:set', async (req) => {
    const keys = await (await opts.projectOf(req)).keySets.get(setOf(req));
    if (keys.length === 0) throw notFound();
    return { keys: keys.map(keyView) };
  });
  scope.get('/admin/keys/:set/:kid', async (req) => {
    const { kid } = req.params as { kid: string };
    const key = (await (await opts.projectOf(req)).keySets.get(setOf(req))).find((k) => k.kid === kid);
    if (!key) throw notFound();
    return { keys: [keyView(key)] };
  });
  scope.post('/admin/keys/:set', async (req, reply) => {
    const project = await opts.projectOf(req);
    const body = decode(createKeySetBody, req.body);
    const set = setOf(req);
    const alg = body.alg ?? '';
    if (set === project.signingSet && alg !== 'RS256') throw badRequest(`The keys of ${set} sign tokens with RS256: create an RS256 key.`);
    const key = await generateKey(alg, body.use || 'sig', body.kid || randomUUID());
    await project.keySets.add(set, [key], opts.now());
    reply.code(201).header('location', req.url.split('?')[0]!);
    return { keys: [keyView(key)] };
  });
  const checkKeys = (project: AdminProject, set: string, keys: StoredJwk[]) => {
    if (set !== project.signingSet) return;
    for (const k of keys) {
      if (k.kty !== 'RSA' || typeof k.d !== 'string' || (k.alg !== undefined && k.alg !== 'RS256')) {
        throw badRequest(`The keys of ${set} sign tokens: give private RS256 keys (kty RSA with d).`);
      }
    }
  };
  scope.put('/admin/keys/:set', async (req) => {
    const project = await opts.projectOf(req);
    const set = setOf(req);
    const body = decode(keySetBody, req.body);
    const keys = (body.keys ?? []).map((k) => ({ ...k, kid: k.kid || randomUUID() }) as StoredJwk);
    if (new Set(keys.map((k) => k.kid)).size !== keys.length) throw badRequest('Unable to decode the request body: two keys share one kid.');
    checkKeys(project, set, keys);
    await project.keySets.replace(set, keys.map((k) => (set === project.signingSet ? { ...k, alg: 'RS256', use: 'sig' } : k)), opts.now());
    return { keys };
  });
  scope.put('/admin/keys/:set/:kid', async (req) => {
    const project = await opts.projectOf(req);
    const set = setOf(req);
    const { kid } = req.params as { kid: string };
    const body = decode(jwkBody, req.body);
    if (body.kid && body.kid !== kid) throw badRequest(`Unable to decode the request body: field "kid": the key's kid ${body.kid} differs from the path's ${kid}.`);
    const key = { ...body, kid } as StoredJwk;
    checkKeys(project, set, [key]);
    await project.keySets.add(set, [set === project.signingSet ? { ...key, alg: 'RS256', use: 'sig' } : key], opts.now());
    return key;
  });
  scope.delete('/admin/keys/:set', async (req, reply) => {
    if (!(await (await opts.projectOf(req)).keySets.removeSet(setOf(req)))) throw notFound();
    return reply.code(204).send();
  });
  scope.delete('/admin/keys/:set/:kid', async (req, reply) => {
    const { kid } = req.params as { kid: string };
    if (!(await (await opts.projectOf(req)).keySets.removeKey(setOf(req), kid))) throw notFound();
    return reply.code(204).send();
  });

  // Trusted JWT-grant issuers; each one's key is kept in the key set named after the issuer, as Hydra keeps it.
  const issuerView = (id: string, p: Record<string, unknown>) => ({
    id,
    issuer: p.issuer,
    ...(p.subject ? { subject: p.subject } : {}),
    allow_any_subject: p.allow_any_subject === true,
    scope: p.scope,
    public_key: { set: p.issuer, kid: p.kid },
    created_at: p.created_at,
    expires_at: p.expires_at,
  });
  const missingParameter = (hint: string) =>
    new HydraError(400, 'missing_required_parameter', `One of the required parameters is missing. Check your request parameters. ${hint}`);
  scope.post('/admin/trust/grants/jwt-bearer/issuers', async (req, reply) => {
    const project = await opts.projectOf(req);
    const parsed = trustBody.safeParse(req.body ?? {});
    if (!parsed.success) throw new HydraError(400, 'error', `Unable to decode the request body: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
    const body = parsed.data;
    if (!body.issuer) throw missingParameter("Field 'issuer' is required.");
    if (!body.subject && !body.allow_any_subject) throw missingParameter("One of 'subject' or 'allow_any_subject' field must be set.");
    if (body.subject && body.allow_any_subject) throw missingParameter("Both 'subject' and 'allow_any_subject' fields cannot be set at the same time.");
    const expires = body.expires_at ? new Date(body.expires_at) : null;
    if (!expires || Number.isNaN(expires.getTime())) throw missingParameter("Field 'expires_at' is required.");
    if (!body.jwk?.kid) throw missingParameter("Field 'jwk' must contain JWK with kid header.");
    const server = project;
    const duplicate = (await server.artefacts.listByPayload(TRUSTED_ISSUER, { field: 'issuer', value: body.issuer })).some(
      (t) => t.payload.kid === body.jwk!.kid && (t.payload.subject ?? '') === (body.subject ?? ''),
    );
    if (duplicate) throw new HydraError(409, 'Conflict', 'Unable to insert or update resource because a resource with that value exists already');
    const id = randomUUID();
    const payload = {
      issuer: body.issuer,
      subject: body.subject ?? '',
      allow_any_subject: body.allow_any_subject === true,
      scope: body.scope ?? [],
      kid: body.jwk.kid,
      created_at: stamp(opts.now()),
      expires_at: stamp(expires),
    };
    await project.keySets.add(body.issuer, [publicJwk(body.jwk as StoredJwk) as StoredJwk], opts.now());
    await server.artefacts.upsert(TRUSTED_ISSUER, id, { payload, expiresAt: null, grantId: null, userCode: null, uid: null });
    reply.code(201).header('location', `${req.url.split('?')[0]}/${id}`);
    return issuerView(id, payload);
  });
  scope.get('/admin/trust/grants/jwt-bearer/issuers', async (req, reply) => {
    const { issuer } = queryOf(req);
    const server = await opts.projectOf(req);
    const all = await server.artefacts.listByPayload(TRUSTED_ISSUER, issuer ? { field: 'issuer', value: issuer } : undefined);
    const sorted = all.sort((a, b) => String(b.payload.created_at).localeCompare(String(a.payload.created_at)) || a.id.localeCompare(b.id));
    return paged(req, reply, sorted).map((t) => issuerView(t.id, t.payload));
  });
  scope.get('/admin/trust/grants/jwt-bearer/issuers/:id', async (req) => {
    const server = await opts.projectOf(req);
    const found = await server.artefacts.find(TRUSTED_ISSUER, (req.params as { id: string }).id);
    if (!found) throw notFound();
    return issuerView((req.params as { id: string }).id, found.payload);
  });
  scope.delete('/admin/trust/grants/jwt-bearer/issuers/:id', async (req, reply) => {
    const project = await opts.projectOf(req);
    const server = project;
    const id = (req.params as { id: string }).id;
    const found = await server.artefacts.find(TRUSTED_ISSUER, id);
    if (!found) throw notFound();
    await server.artefacts.destroy(TRUSTED_ISSUER, id);
    // The issuer's key goes when no other trust of that issuer uses it.
    const issuer = String(found.payload.issuer);
    const others = await server.artefacts.listByPayload(TRUSTED_ISSUER, { field: 'issuer', value: issuer });
    if (!others.some((t) => t.payload.kid === found.payload.kid)) await project.keySets.removeKey(issuer, String(found.payload.kid));
    return reply.code(204).send();
  });
}

/** What a rotation does to a client: the old secret joins the rotated ones (the five newest are kept). */
export function rotated(current: StoredClient, secret: string, at: string): StoredClient {
  const previous = Array.isArray(current.rotated_secrets) ? (current.rotated_secrets as string[]) : [];
  const old = typeof current.client_secret === 'string' && current.client_secret ? [current.client_secret] : [];
  return { ...current, client_secret: secret, rotated_secrets: [...old, ...previous].slice(0, KEPT_ROTATED), updated_at: at };
}

export { requireSecretMethod };
