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

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code'] as const;
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
  strategies: z.object({ access_token: z.enum(['opaque', 'jwt']) }),
  urls: z.object({ login: z.string(), consent: z.string(), logout: z.string(), error: z.string(), post_logout_redirect: z.string() }),
  configure: z.object({ pkce_enforced: z.boolean(), pkce_enforced_for_public_clients: z.boolean() }),
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
export const oauth2SetStrategiesInput = z.object({ projectId, access_token: z.enum(['opaque', 'jwt'], { error: 'Choose opaque or jwt' }) });

/** The lifespans page's form: each a duration, or empty for Hydra's default. */
export const oauth2LifespansForm = z.object({
  access_token: z.union([goDuration, z.literal('')]),
  refresh_token: z.union([goDuration, z.literal('')]),
  id_token: z.union([goDuration, z.literal('')]),
  auth_code: z.union([goDuration, z.literal('')]),
});
export const oauth2StrategiesForm = z.object({ access_token: z.enum(['opaque', 'jwt'], { error: 'Choose opaque or jwt' }) });

const urlOrEmpty = z.union([
  z.string().trim().url({ error: 'Enter a full URL such as https://app.example.com/login' }).max(2048),
  z.literal(''),
]);
/** Where the server sends browsers; empty for the project's default. */
export const oauth2UrlsForm = z.object({ login: urlOrEmpty, consent: urlOrEmpty, logout: urlOrEmpty, error: urlOrEmpty, post_logout_redirect: urlOrEmpty });
export const oauth2SetUrlsInput = oauth2UrlsForm.partial().extend({ projectId });
export const oauth2ConfigureForm = z.object({ pkce_enforced: z.boolean(), pkce_enforced_for_public_clients: z.boolean() });
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
