import type { JsonWebKeySet, OAuth2Client } from '@ory/client';
import { z } from 'zod';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

const projectId = uuidSchema;
const clientId = z.string().trim().min(1, { error: 'Give the client ID' }).max(255, { error: 'A client ID has at most 255 characters' });
const pageToken = z.string().max(1024, { error: 'Page token is too long' }).optional();

const text = (label: string, max = 1024) => z.string().max(max, { error: `${label} has at most ${max} characters` });
const uris = (label: string) => z.array(text(label, 2048)).max(100, { error: `At most 100 ${label}` });

const LIFESPANS = [
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
const optText = z.string().optional();
const optList = z.array(z.string()).optional();
const jsonObject = <T extends object>(error: string) =>
  z.custom<T>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error }).optional();

/** Hydra's client as the admin API answers it: every field of Ory's model, so nothing is lost on the way. */
export const oauth2ClientSchema = conformsTo<OAuth2Client>()(
  z.object({
    client_id: optText,
    client_name: optText,
    client_secret: optText,
    client_secret_expires_at: z.number().optional(),
    redirect_uris: optList,
    grant_types: optList,
    response_types: optList,
    scope: optText,
    audience: optList,
    owner: optText,
    policy_uri: optText,
    tos_uri: optText,
    client_uri: optText,
    logo_uri: optText,
    contacts: optList,
    allowed_cors_origins: optList,
    subject_type: optText,
    sector_identifier_uri: optText,
    token_endpoint_auth_method: optText,
    token_endpoint_auth_signing_alg: optText,
    request_object_signing_alg: optText,
    request_uris: optList,
    userinfo_signed_response_alg: optText,
    access_token_strategy: optText,
    skip_consent: z.boolean().optional(),
    skip_logout_consent: z.boolean().optional(),
    post_logout_redirect_uris: optList,
    frontchannel_logout_uri: optText,
    frontchannel_logout_session_required: z.boolean().optional(),
    backchannel_logout_uri: optText,
    backchannel_logout_session_required: z.boolean().optional(),
    metadata: jsonObject<object>('metadata is a JSON object'),
    jwks: jsonObject<JsonWebKeySet>('jwks is a JSON Web Key Set'),
    jwks_uri: optText,
    registration_access_token: optText,
    registration_client_uri: optText,
    created_at: optText,
    updated_at: optText,
    ...(Object.fromEntries(LIFESPANS.map((f) => [f, z.string().nullable().optional()])) as Record<
      (typeof LIFESPANS)[number],
      z.ZodOptional<z.ZodNullable<z.ZodString>>
    >),
  }),
);
export type OAuth2ClientView = z.infer<typeof oauth2ClientSchema>;

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:jwt-bearer'] as const;
export const RESPONSE_TYPES = ['code', 'id_token', 'token', 'code id_token'] as const;
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;

/**
 * A client as the console's form sends it. The §3 rules run on the server before it goes upstream: `jwks`
 * given as JSON text is parsed, a `scope` list is joined with spaces, `skip_logout_consent` only when true.
 */
export const oauth2ClientBodySchema = z.looseObject({
  client_name: text('The name', 256).optional(),
  redirect_uris: uris('redirect URIs').optional(),
  post_logout_redirect_uris: uris('logout redirect URIs').optional(),
  grant_types: z.array(z.enum(GRANT_TYPES, { error: 'Not a grant type this server knows' })).optional(),
  response_types: z.array(text('A response type', 64)).max(10).optional(),
  scope: z.union([text('The scope', 4096), z.array(text('A scope', 256)).max(200)]).optional(),
  audience: z.array(text('An audience', 2048)).max(100).optional(),
  owner: text('The owner', 256).optional(),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS, { error: 'Choose how the client authenticates' }).optional(),
  access_token_strategy: z.enum(['opaque', 'jwt'], { error: 'The strategy is opaque or jwt' }).optional(),
  skip_consent: z.boolean().optional(),
  skip_logout_consent: z.boolean().nullish(),
  subject_type: z.enum(['public', 'pairwise'], { error: 'The subject type is public or pairwise' }).optional(),
  jwks: z.union([text('The JWKS', 65536), z.record(z.string(), z.unknown())]).optional(),
  jwks_uri: text('The JWKS URI', 2048).optional(),
  client_uri: text('The client URI', 2048).optional(),
  logo_uri: text('The logo URI', 2048).optional(),
  policy_uri: text('The policy URI', 2048).optional(),
  tos_uri: text('The terms URI', 2048).optional(),
  contacts: z.array(text('A contact', 256)).max(50).optional(),
  allowed_cors_origins: uris('CORS origins').optional(),
  metadata: z.record(z.string(), z.unknown(), { error: 'Metadata must be a JSON object' }).optional(),
  client_secret: z.string().min(6, { error: 'A secret has at least 6 characters' }).max(512).optional(),
});
export type OAuth2ClientBody = z.infer<typeof oauth2ClientBodySchema>;

/** RFC 6902 operations, as Hydra's patch takes them. */
export const jsonPatchSchema = z
  .array(
    z.object({
      op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test'], { error: 'op is add, remove, replace, move, copy or test' }),
      path: z.string().regex(/^\/.*/, { error: 'path is a JSON pointer such as /client_name' }).max(512),
      from: z.string().regex(/^\/.*/, { error: 'from is a JSON pointer such as /client_name' }).max(512).optional(),
      value: z.unknown().optional(),
    }),
  )
  .min(1, { error: 'A patch has at least one operation' })
  .max(100, { error: 'A patch has at most 100 operations' });

export const OAUTH2_CLIENTS_PAGE_SIZE = 25;

export const oauth2ClientsListInput = z.object({
  projectId,
  pageSize: z.number().int().min(1, { error: 'Page size is 1 to 1000' }).max(1000, { error: 'Page size is 1 to 1000' }).default(OAUTH2_CLIENTS_PAGE_SIZE),
  pageToken,
  clientName: text('The name', 256).optional(),
});
export const oauth2ClientsListOutput = z.object({ clients: z.array(oauth2ClientSchema), nextPageToken: z.string().nullable() });
export const oauth2ClientRefInput = z.object({ projectId, clientId });
export const oauth2ClientCreateInput = z.object({ projectId, client: oauth2ClientBodySchema });
export const oauth2ClientSetInput = z.object({ projectId, clientId, client: oauth2ClientBodySchema });
export const oauth2ClientPatchInput = z.object({ projectId, clientId, patch: jsonPatchSchema });
export const okOutput = z.object({ ok: z.literal(true) });

/** A Go duration as Hydra's config takes it: `1h`, `30m`, `1h30m`, `720h`. */
const goDuration = z
  .string()
  .trim()
  .regex(/^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/, { error: 'Write a duration such as 1h, 30m or 1h30m' })
  .max(32, { error: 'Write a duration such as 1h, 30m or 1h30m' });

export const OAUTH2_LIFESPANS = ['access_token', 'refresh_token', 'id_token', 'auth_code'] as const;

/** The project's OAuth2 settings the console edits (`services.oauth2.config`); '' where the project keeps Hydra's default. */
export const oauth2ConfigOutput = z.object({
  revisionId: z.string(),
  lifespans: z.object({ access_token: z.string(), refresh_token: z.string(), id_token: z.string(), auth_code: z.string() }),
  strategies: z.object({ access_token: z.enum(['opaque', 'jwt']), scope: z.enum(['exact', 'wildcard']) }),
  urls: z.object({ login: z.string(), consent: z.string(), logout: z.string(), error: z.string(), post_logout_redirect: z.string(), issuer: z.string() }),
  configure: z.object({ pkce_enforced: z.boolean(), pkce_enforced_for_public_clients: z.boolean(), dynamic_client_registration: z.boolean() }),
  openid: z.object({ subject_types: z.array(z.enum(['public', 'pairwise'])), pairwise_salt_set: z.boolean() }),
  cookies: z.object({ same_site_mode: z.enum(['Strict', 'Lax', 'None']) }),
});
export type OAuth2Config = z.infer<typeof oauth2ConfigOutput>;

export const oauth2ConfigInput = z.object({ projectId });
/** Lifespans to set; an empty one goes back to Hydra's default. */
export const oauth2SetLifespansInput = z.object({
  projectId,
  access_token: z.union([goDuration, z.literal('')]).optional(),
  refresh_token: z.union([goDuration, z.literal('')]).optional(),
  id_token: z.union([goDuration, z.literal('')]).optional(),
  auth_code: z.union([goDuration, z.literal('')]).optional(),
});
const accessTokenStrategy = z.enum(['opaque', 'jwt'], { error: 'Choose opaque or jwt' });
const scopeStrategy = z.enum(['exact', 'wildcard'], { error: 'Choose exact or wildcard' });
/** The token and scope strategies; one left out keeps its value. */
export const oauth2SetStrategiesInput = z
  .object({ projectId, access_token: accessTokenStrategy.optional(), scope: scopeStrategy.optional() })
  .refine((v) => v.access_token !== undefined || v.scope !== undefined, { error: 'Give access_token or scope to change' });

/** The lifespans page's form: each a duration, or empty for Hydra's default. */
export const oauth2LifespansForm = z.object({
  access_token: z.union([goDuration, z.literal('')]),
  refresh_token: z.union([goDuration, z.literal('')]),
  id_token: z.union([goDuration, z.literal('')]),
  auth_code: z.union([goDuration, z.literal('')]),
});
export const oauth2StrategiesForm = z.object({ access_token: accessTokenStrategy, scope: scopeStrategy });

const urlOrEmpty = z.union([
  z.string().trim().url({ error: 'Enter a full URL such as https://app.example.com/login' }).max(2048),
  z.literal(''),
]);
/** Where the server sends browsers; empty for the project's default. */
export const oauth2UrlsForm = z.object({ login: urlOrEmpty, consent: urlOrEmpty, logout: urlOrEmpty, error: urlOrEmpty, post_logout_redirect: urlOrEmpty, issuer: urlOrEmpty });
export const oauth2SetUrlsInput = oauth2UrlsForm.partial().extend({ projectId });
export const oauth2ConfigureForm = z.object({ pkce_enforced: z.boolean(), pkce_enforced_for_public_clients: z.boolean(), dynamic_client_registration: z.boolean() });
export const oauth2SetConfigureInput = oauth2ConfigureForm.partial().extend({ projectId });
export const oauth2SetOpenIdInput = z.object({
  projectId,
  subject_types: z.array(z.enum(['public', 'pairwise'], { error: 'A subject type is public or pairwise' })).min(1, { error: 'Keep at least one subject type' }).optional(),
  pairwise_salt: z.string().min(8, { error: 'The salt has at least 8 characters' }).max(256).optional(),
});
export const oauth2CookiesForm = z.object({ same_site_mode: z.enum(['Strict', 'Lax', 'None'], { error: 'Choose Strict, Lax or None' }) });
export const oauth2SetCookiesInput = oauth2CookiesForm.extend({ projectId });
/** The OpenID Connect page's form; an empty salt keeps the stored one. */
export const oauth2OpenIdForm = z
  .object({
    public: z.boolean(),
    pairwise: z.boolean(),
    pairwise_salt: z.union([z.string().min(8, { error: 'The salt has at least 8 characters' }).max(256), z.literal('')]),
  })
  .refine((v) => v.public || v.pairwise, { error: 'Keep at least one subject type', path: ['public'] });

/* ---- A client's own token lifespans, consent sessions, JSON Web Key sets, trusted JWT-grant issuers ---- */

export const CLIENT_LIFESPAN_FIELDS = LIFESPANS;
export type ClientLifespanField = (typeof LIFESPANS)[number];

/** Each of the client's lifespans: a duration, or empty for the project's own. */
export const oauth2ClientLifespansForm = z.object(
  Object.fromEntries(LIFESPANS.map((f) => [f, z.union([goDuration, z.literal('')])])) as Record<ClientLifespanField, z.ZodUnion<[typeof goDuration, z.ZodLiteral<''>]>>,
);
export const oauth2ClientLifespansInput = z.object({ projectId, clientId, lifespans: oauth2ClientLifespansForm.partial() });

const subject = z.string().trim().min(1, { error: 'Give the subject (the user id the apps know)' }).max(1024, { error: 'A subject has at most 1024 characters' });

/** A consent a user gave an app: Hydra's consent session, as much of it as the console shows. */
export const oauth2ConsentSessionSchema = z.looseObject({
  consent_request_id: optText,
  grant_scope: optList,
  grant_access_token_audience: optList,
  handled_at: z.string().nullish(),
  remember: z.boolean().optional(),
  remember_for: z.number().optional(),
  consent_request: z.looseObject({ subject: optText, client: z.looseObject({ client_id: optText, client_name: optText, logo_uri: optText }).optional() }).optional(),
});
export const oauth2ConsentSessionsInput = z.object({ projectId, subject, pageToken });
export const oauth2ConsentSessionsOutput = z.object({ sessions: z.array(oauth2ConsentSessionSchema), nextPageToken: z.string().nullable() });
/** Without a client, every app's consent of the subject goes. */
export const oauth2RevokeConsentInput = z.object({ projectId, subject, clientId: clientId.optional() });
export const oauth2RevokeLoginInput = z.object({ projectId, subject });

/** A key set's name: Hydra's own (`hydra.openid.id-token`), one of the project's, or a trusted issuer's URL. */
const keySetName = z
  .string()
  .trim()
  .min(1, { error: 'Give the key set a name' })
  .max(256, { error: 'A key set name has at most 256 characters' })
  .regex(/^[A-Za-z0-9._~:/@+-]+$/, { error: 'A key set name has letters, digits and . _ ~ : / @ + - only' });
const kid = z.string().trim().min(1, { error: 'Give the key id' }).max(256, { error: 'A key id has at most 256 characters' });

export const KEY_ALGORITHMS = ['RS256', 'ES256', 'ES512', 'HS256', 'HS512'] as const;
export const ID_TOKEN_KEY_SET = 'hydra.openid.id-token';

/** A key as the console shows it: public parts only. */
export const publicJwkSchema = z.looseObject({ kid: optText, kty: optText, alg: optText, use: optText, crv: optText });
export const oauth2KeySetOutput = z.object({ keys: z.array(publicJwkSchema) });
export const oauth2KeySetInput = z.object({ projectId, set: keySetName });
export const oauth2KeyCreateForm = z.object({
  set: keySetName,
  alg: z.enum(KEY_ALGORITHMS, { error: 'Choose RS256, ES256, ES512, HS256 or HS512' }),
  use: z.enum(['sig', 'enc'], { error: 'A key signs (sig) or encrypts (enc)' }),
  kid: z.union([kid, z.literal('')]).optional(),
});
export const oauth2KeyCreateInput = oauth2KeyCreateForm.extend({ projectId });
export const oauth2KeyRefInput = z.object({ projectId, set: keySetName, kid });

/** A trusted issuer of JWT-bearer grants (Hydra's trust relationship). */
export const trustedIssuerSchema = z.object({
  id: optText,
  issuer: optText,
  subject: optText,
  allow_any_subject: z.boolean().optional(),
  scope: optList,
  public_key: z.object({ set: optText, kid: optText }).optional(),
  created_at: optText,
  expires_at: optText,
});
export const trustedIssuersListInput = z.object({ projectId, pageToken, issuer: text('The issuer', 2048).optional() });
export const trustedIssuersListOutput = z.object({ issuers: z.array(trustedIssuerSchema), nextPageToken: z.string().nullable() });
export const trustedIssuerRefInput = z.object({ projectId, id: z.string().trim().min(1, { error: 'Give the trust relationship id' }).max(64) });
export const trustIssuerForm = z
  .object({
    issuer: z.string().trim().url({ error: 'Enter the issuer URL, such as https://jwt-idp.example.com' }).max(2048),
    subject: z.string().trim().max(1024).optional(),
    allow_any_subject: z.boolean().optional(),
    scope: z.union([text('The scope', 4096), z.array(text('A scope', 256)).max(200)]).optional(),
    /** The issuer's public key, as JSON text or an object; it must name its kid. */
    jwk: z.union([text('The key', 65536), z.record(z.string(), z.unknown())]),
    expires_at: z.string().trim().min(1, { error: 'Say until when the issuer is trusted' }).max(64).refine((v) => !Number.isNaN(Date.parse(v)), { error: 'Enter a date such as 2030-01-31' }),
  })
  .refine((v) => Boolean(v.subject) !== Boolean(v.allow_any_subject), { error: 'Name one subject, or allow any subject (not both)', path: ['subject'] });
export const trustIssuerInput = z.object({ projectId, issuer: trustIssuerForm });

/** The challenge of a consent request of the console's own OAuth2 server (the `consent_challenge` of the page's URL). */
const consentChallenge = z
  .string()
  .trim()
  .min(1, { error: 'Give the consent challenge the application sent you with' })
  .max(512, { error: 'A consent challenge has at most 512 characters' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'A consent challenge has only letters, digits, - and _' });
const scopeName = z.string().trim().min(1, { error: 'A scope is not empty' }).max(256, { error: 'A scope has at most 256 characters' });

/** An application's request to act on the signed-in user's console account, as the consent page shows it. */
export const oauth2ConsentRequestOutput = z.object({
  challenge: z.string(),
  client: z.looseObject({ client_id: optText, client_name: optText, logo_uri: optText, client_uri: optText, policy_uri: optText, tos_uri: optText }),
  requested_scope: z.array(z.string()),
  subject: z.string(),
});
export const oauth2ConsentChallengeInput = z.object({ challenge: consentChallenge });
export const oauth2ConsentAcceptInput = z.object({
  challenge: consentChallenge,
  scopes: z.array(scopeName).max(100, { error: 'At most 100 scopes' }),
  remember: z.boolean(),
});
/** Where the browser goes next: back to the application, with a code or with access_denied. */
export const oauth2RedirectOutput = z.object({ redirect_to: z.url() });
