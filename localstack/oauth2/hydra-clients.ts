import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { parseDuration } from './settings';
import type { StoredClient } from './storage';

/**
 * Hydra's client rules (its client validator and admin handler, read from its source): what a create, set or
 * patch body may hold, the defaults it gets, and the client JSON the admin API answers. Pure: the routes store
 * what these functions return.
 */

/** An answer in Hydra's error shape (`errorOAuth2`): the status, `error` and `error_description`. */
export class HydraError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }

  get body() {
    return { error: this.error, error_description: this.description.replaceAll('"', "'") };
  }
}

const INVALID_METADATA =
  "The value of one of the Client Metadata fields is invalid and the server has rejected this request. Note that an Authorization Server MAY choose to substitute a valid value for any requested parameter of a Client's Metadata.";
const INVALID_REDIRECT = 'The value of one or more redirect_uris is invalid.';

export const invalidMetadata = (hint: string) => new HydraError(400, 'invalid_client_metadata', `${INVALID_METADATA} ${hint}`);
const invalidRedirect = (hint: string) => new HydraError(400, 'invalid_redirect_uri', `${INVALID_REDIRECT} ${hint}`);
export const badRequest = (reason: string) => new HydraError(400, 'The request was malformed or contained invalid parameters', reason);
export const clientNotFound = () => new HydraError(404, 'Not Found', 'Unable to locate the requested resource');

/** Hydra's scope for a client that names none (`oidc.dynamic_client_registration.default_scope`'s default). */
export const DEFAULT_CLIENT_SCOPE = 'offline_access offline openid';

export const LIFESPAN_FIELDS = [
  'authorization_code_grant_access_token_lifespan',
  'authorization_code_grant_id_token_lifespan',
  'authorization_code_grant_refresh_token_lifespan',
  'client_credentials_grant_access_token_lifespan',
  'device_authorization_grant_access_token_lifespan',
  'device_authorization_grant_id_token_lifespan',
  'device_authorization_grant_refresh_token_lifespan',
  'implicit_grant_access_token_lifespan',
  'implicit_grant_id_token_lifespan',
  'jwt_bearer_grant_access_token_lifespan',
  'refresh_token_grant_access_token_lifespan',
  'refresh_token_grant_id_token_lifespan',
  'refresh_token_grant_refresh_token_lifespan',
] as const;

const str = z.string().optional();
const strs = z.array(z.string()).nullish();
const lifespan = z.string().nullish();

/** The fields Hydra decodes from a client body, with their JSON types; others are dropped as Go drops them. */
export const clientBody = z.object({
  client_id: str,
  client_name: str,
  client_secret: str,
  client_secret_expires_at: z.number().int().optional(),
  redirect_uris: strs,
  grant_types: strs,
  response_types: strs,
  scope: str,
  audience: strs,
  owner: str,
  policy_uri: str,
  tos_uri: str,
  client_uri: str,
  logo_uri: str,
  contacts: strs,
  allowed_cors_origins: strs,
  subject_type: str,
  sector_identifier_uri: str,
  jwks: z.record(z.string(), z.unknown()).nullish(),
  jwks_uri: str,
  token_endpoint_auth_method: str,
  token_endpoint_auth_signing_alg: str,
  request_object_signing_alg: str,
  request_uris: strs,
  userinfo_signed_response_alg: str,
  post_logout_redirect_uris: strs,
  frontchannel_logout_uri: str,
  frontchannel_logout_session_required: z.boolean().optional(),
  backchannel_logout_uri: str,
  backchannel_logout_session_required: z.boolean().optional(),
  metadata: z.unknown().optional(),
  skip_consent: z.boolean().optional(),
  skip_logout_consent: z.boolean().nullish(),
  access_token_strategy: str,
  ...Object.fromEntries(LIFESPAN_FIELDS.map((f) => [f, lifespan])),
});

export type ClientBody = z.infer<typeof clientBody>;

/** Reads a client body as Hydra's JSON decoder does, or throws its 400 naming the field of the wrong type. */
export function decodeClientBody(body: unknown): ClientBody {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Unable to decode the request body: the body must be a JSON object.');
  }
  const parsed = clientBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(`Unable to decode the request body: field "${issue.path.join('.')}": ${issue.message}.`);
  }
  return parsed.data;
}

const SIGNING_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

const urlOk = (value: string) => {
  try {
    const u = new URL(value);
    return u.protocol.length > 1;
  } catch {
    return false;
  }
};

/** A new client secret as Hydra makes them: 26 random characters. */
export const generateSecret = () => randomBytes(20).toString('base64url').slice(0, 26);

export interface ValidateOptions {
  subjectTypes: Array<'public' | 'pairwise'>;
}

/**
 * Hydra's client validator: defaults filled in, and the first broken rule thrown as its 400. Takes a decoded
 * body with `client_id` and `client_secret` already decided.
 */
export function validateClient(c: ClientBody & { client_id: string }, opts: ValidateOptions): ClientBody & { client_id: string } {
  const out = { ...c };
  if (!out.token_endpoint_auth_method) out.token_endpoint_auth_method = 'client_secret_basic';
  else if (out.token_endpoint_auth_method === 'private_key_jwt') {
    if (!out.jwks_uri && !out.jwks) {
      throw invalidMetadata("When token_endpoint_auth_method is 'private_key_jwt', either jwks or jwks_uri must be set.");
    }
    if (out.token_endpoint_auth_signing_alg && !SIGNING_ALGS.includes(out.token_endpoint_auth_signing_alg)) {
      throw invalidMetadata('Only RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 and ES512 are supported as algorithms for private key authentication.');
    }
  }
  if (out.jwks_uri && out.jwks) throw invalidMetadata('Fields jwks and jwks_uri can not both be set, you must choose one.');
  if (out.jwks && !Array.isArray((out.jwks as { keys?: unknown }).keys)) {
    throw invalidMetadata('Field jwks must be a JSON Web Key Set: an object with a "keys" array.');
  }
  for (const [field, value] of [
    ['backchannel_logout_uri', out.backchannel_logout_uri],
    ['frontchannel_logout_uri', out.frontchannel_logout_uri],
    ['jwks_uri', out.jwks_uri],
    ['client_uri', out.client_uri],
    ['logo_uri', out.logo_uri],
    ['policy_uri', out.policy_uri],
    ['tos_uri', out.tos_uri],
  ] as const) {
    if (value && !urlOk(value)) throw invalidMetadata(`Field ${field} must be a valid URL but it is not: ${value}`);
  }
  if (out.client_secret && out.client_secret.length < 6) {
    throw invalidMetadata('Field client_secret must contain a secret that is at least 6 characters long.');
  }
  if (!out.scope) out.scope = DEFAULT_CLIENT_SCOPE;
  for (const origin of out.allowed_cors_origins ?? []) {
    let u: URL | null = null;
    try {
      u = new URL(origin);
    } catch {
      u = null;
    }
    if (!u || u.pathname !== '/' || origin.endsWith('/') || u.search || u.hash || u.username || u.password) {
      throw invalidMetadata(`Origin URL ${origin} must not contain a path, query, fragment or user info, and must not end with a slash.`);
    }
  }
  if (!out.userinfo_signed_response_alg) out.userinfo_signed_response_alg = 'none';
  if (out.userinfo_signed_response_alg !== 'none' && out.userinfo_signed_response_alg !== 'RS256') {
    throw invalidMetadata('Field userinfo_signed_response_alg can either be "none" or "RS256".');
  }
  const redirects: URL[] = [];
  for (const r of out.redirect_uris ?? []) {
    if (r.includes('#')) throw invalidRedirect('Redirect URIs must not contain fragments (#).');
    if (!urlOk(r)) throw invalidRedirect(`Unable to parse redirect URL: ${r}`);
    redirects.push(new URL(r));
  }
  if (out.subject_type) {
    if (!(opts.subjectTypes as string[]).includes(out.subject_type)) {
      throw invalidMetadata(`Subject type ${out.subject_type} is not supported by server, only [${opts.subjectTypes.join(' ')}] are allowed.`);
    }
  } else {
    out.subject_type = opts.subjectTypes.includes('public') ? 'public' : opts.subjectTypes[0]!;
  }
  for (const l of out.post_logout_redirect_uris ?? []) {
    if (!urlOk(l)) throw invalidMetadata(`Unable to parse post_logout_redirect_uri: ${l}`);
    const u = new URL(l);
    if (!redirects.some((r) => r.protocol === u.protocol && r.hostname === u.hostname && r.port === u.port)) {
      throw invalidMetadata(
        `post_logout_redirect_uri '${l}' must match the domain, port, scheme of at least one of the registered redirect URIs but did not`,
      );
    }
  }
  if (out.access_token_strategy) {
    const s = out.access_token_strategy.toLowerCase();
    if (s !== 'jwt' && s !== 'opaque') {
      throw invalidMetadata(`invalid access token strategy: Invalid access token strategy: ${out.access_token_strategy}`);
    }
    out.access_token_strategy = s;
  }
  for (const field of LIFESPAN_FIELDS) {
    const value = out[field as keyof typeof out];
    if (typeof value === 'string' && value !== '' && parseDuration(value) === null) {
      throw badRequest(`Unable to decode the request body: field "${field}": "${value}" is not a duration such as 1h or 30m.`);
    }
  }
  if (out.metadata !== undefined && out.metadata !== null && (typeof out.metadata !== 'object' || Array.isArray(out.metadata))) {
    throw badRequest('Unable to decode the request body: field "metadata" must be a JSON object.');
  }
  return out;
}

/** A client as stored: the validated body, the secret, and the times Hydra keeps (rounded to the second). */
export function toStored(c: ClientBody & { client_id: string }, createdAt: string, updatedAt: string): StoredClient {
  return { ...c, created_at: createdAt, updated_at: updatedAt } as StoredClient;
}

/** A new client's id when the body gives none (Hydra: a UUID). */
export const newClientId = () => randomUUID();

/** The client JSON Hydra answers: every field present, empty ones as Hydra writes them, no secret unless given. */
export function clientView(c: StoredClient, secret?: string): Record<string, unknown> {
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const view: Record<string, unknown> = {
    client_id: c.client_id,
    client_name: text(c.client_name),
    ...(secret ? { client_secret: secret } : {}),
    redirect_uris: list(c.redirect_uris),
    grant_types: list(c.grant_types),
    response_types: list(c.response_types),
    scope: text(c.scope),
    audience: list(c.audience),
    owner: text(c.owner),
    policy_uri: text(c.policy_uri),
    allowed_cors_origins: list(c.allowed_cors_origins),
    tos_uri: text(c.tos_uri),
    client_uri: text(c.client_uri),
    logo_uri: text(c.logo_uri),
    contacts: list(c.contacts),
    client_secret_expires_at: typeof c.client_secret_expires_at === 'number' ? c.client_secret_expires_at : 0,
    subject_type: text(c.subject_type),
    ...(c.jwks ? { jwks: c.jwks } : {}),
    ...(c.jwks_uri ? { jwks_uri: c.jwks_uri } : {}),
    ...(c.sector_identifier_uri ? { sector_identifier_uri: c.sector_identifier_uri } : {}),
    token_endpoint_auth_method: text(c.token_endpoint_auth_method),
    ...(c.token_endpoint_auth_signing_alg ? { token_endpoint_auth_signing_alg: c.token_endpoint_auth_signing_alg } : {}),
    ...(c.request_object_signing_alg ? { request_object_signing_alg: c.request_object_signing_alg } : {}),
    ...(Array.isArray(c.request_uris) && c.request_uris.length ? { request_uris: c.request_uris } : {}),
    userinfo_signed_response_alg: text(c.userinfo_signed_response_alg) || 'none',
    created_at: c.created_at,
    updated_at: c.updated_at,
    metadata: c.metadata && typeof c.metadata === 'object' ? c.metadata : {},
    post_logout_redirect_uris: list(c.post_logout_redirect_uris),
    frontchannel_logout_uri: text(c.frontchannel_logout_uri),
    frontchannel_logout_session_required: c.frontchannel_logout_session_required === true,
    backchannel_logout_uri: text(c.backchannel_logout_uri),
    backchannel_logout_session_required: c.backchannel_logout_session_required === true,
    skip_consent: c.skip_consent === true,
    skip_logout_consent: c.skip_logout_consent === true,
    ...(c.access_token_strategy ? { access_token_strategy: c.access_token_strategy } : {}),
    // A self-registered client's management URI (see registration.ts).
    ...(typeof c.registration_client_uri === 'string' ? { registration_client_uri: c.registration_client_uri } : {}),
  };
  for (const field of LIFESPAN_FIELDS) if (typeof c[field] === 'string' && c[field] !== '') view[field] = c[field];
  return view;
}
