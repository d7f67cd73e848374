import type { StoredClient } from './storage';

/** The grant types this server issues for; Hydra's client may list others, which then simply never succeed. */
export const SUPPORTED_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'implicit',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:ietf:params:oauth:grant-type:jwt-bearer',
] as const;
/** The response types the provider is configured with (OAuth 2.1 and OpenID Connect's code and hybrid flows). */
export const SUPPORTED_RESPONSE_TYPES = ['code', 'code id_token', 'id_token', 'none'] as const;
export const SUPPORTED_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;

/** Client fields of Hydra that oidc-provider keeps as extra metadata, read back when tokens are issued. */
export const EXTRA_CLIENT_METADATA = [
  'access_token_strategy',
  'skip_consent',
  'skip_logout_consent',
  'audience',
  'owner',
  // Secrets a rotation replaced, still accepted until deleted (Hydra's rotated secrets).
  'rotated_secrets',
  // The client's own token lifespans (Hydra's per-client lifespans), Go durations.
  'authorization_code_grant_access_token_lifespan',
  'authorization_code_grant_id_token_lifespan',
  'authorization_code_grant_refresh_token_lifespan',
  'client_credentials_grant_access_token_lifespan',
  'device_authorization_grant_access_token_lifespan',
  'device_authorization_grant_id_token_lifespan',
  'device_authorization_grant_refresh_token_lifespan',
  'implicit_grant_access_token_lifespan',
  'implicit_grant_id_token_lifespan',
  'refresh_token_grant_access_token_lifespan',
  'refresh_token_grant_id_token_lifespan',
  'refresh_token_grant_refresh_token_lifespan',
] as const;

/** Fields with the same name and meaning on both sides. */
const SAME = [
  'client_id',
  'client_name',
  'redirect_uris',
  'post_logout_redirect_uris',
  'scope',
  'jwks',
  'jwks_uri',
  'logo_uri',
  'client_uri',
  'policy_uri',
  'tos_uri',
  'contacts',
  'subject_type',
  'sector_identifier_uri',
  'token_endpoint_auth_signing_alg',
  'request_object_signing_alg',
  'request_uris',
] as const;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * oidc-provider's client metadata for a client kept as Hydra keeps it. Hydra lets `grant_types` and
 * `response_types` be empty (its token layer then means `authorization_code` and `code`); oidc-provider wants them
 * listed, and only values it was configured with, so unknown ones are dropped here instead of making the client
 * unusable.
 */
export function toProviderMetadata(client: StoredClient): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const field of SAME) if (!isEmpty(client[field])) metadata[field] = client[field];
  const grants = strings(client.grant_types).filter((g) => (SUPPORTED_GRANT_TYPES as readonly string[]).includes(g));
  metadata.grant_types = grants.length > 0 ? grants : ['authorization_code'];
  // oidc-provider refuses a client whose response types need a grant it does not list (`code` needs
  // `authorization_code`, `id_token` needs `implicit`); Hydra does not, so such response types are dropped.
  const browser = (metadata.grant_types as string[]).some((g) => g === 'authorization_code' || g === 'implicit');
  const responses = strings(client.response_types).filter(
    (r) =>
      (SUPPORTED_RESPONSE_TYPES as readonly string[]).includes(r) &&
      (!r.includes('code') || grants.includes('authorization_code') || grants.length === 0) &&
      (!r.includes('id_token') || r.includes('code') || grants.includes('implicit')),
  );
  metadata.response_types = responses.length > 0 ? responses : browser ? ['code'] : [];
  const method = typeof client.token_endpoint_auth_method === 'string' && client.token_endpoint_auth_method !== ''
    ? client.token_endpoint_auth_method
    : 'client_secret_basic';
  metadata.token_endpoint_auth_method = method;
  if (method !== 'none' && method !== 'private_key_jwt' && typeof client.client_secret === 'string') {
    metadata.client_secret = client.client_secret;
  }
  if (typeof client.client_secret_expires_at === 'number' && client.client_secret_expires_at > 0) {
    metadata.client_secret_expires_at = client.client_secret_expires_at;
  }
  for (const field of EXTRA_CLIENT_METADATA) if (!isEmpty(client[field])) metadata[field] = client[field];
  // Like Hydra (RFC 8252 §7.3), a loopback redirect URI matches on any port: a tool on the user's machine listens
  // where it can. oidc-provider does that for native clients, which a client of loopback URIs only is.
  const redirects = strings(client.redirect_uris);
  if (redirects.length > 0 && redirects.every((u) => /^http:\/\/(?:127\.0\.0\.1|\[::1\])(?::\d+)?\//.test(u))) metadata.application_type = 'native';
  return metadata;
}
