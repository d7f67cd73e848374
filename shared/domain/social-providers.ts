/**
 * The kinds of social sign-in provider a project can configure, as Ory names them in
 * `selfservice.methods.oidc.config.providers[].provider`, with what the identity service needs to reach each
 * one when the provider's own configuration does not say it (a generic provider brings its issuer).
 */
export interface SocialProviderKind {
  kind: string;
  label: string;
  /** OpenID Connect issuer to discover endpoints from. */
  issuer?: string;
  /** OAuth2-only providers: where to send the browser, where to exchange the code, where to read the profile. */
  authUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  scope: string[];
  /** Fields of the form beyond client id and secret that the kind needs. */
  fields: Array<'issuer_url' | 'auth_url' | 'token_url' | 'microsoft_tenant' | 'apple_team_id' | 'apple_private_key_id'>;
}

export const SOCIAL_PROVIDER_KINDS: readonly SocialProviderKind[] = [
  { kind: 'generic', label: 'Generic OpenID Connect', scope: ['openid', 'email', 'profile'], fields: ['issuer_url', 'auth_url', 'token_url'] },
  { kind: 'google', label: 'Google', issuer: 'https://accounts.google.com', scope: ['openid', 'email', 'profile'], fields: [] },
  { kind: 'github', label: 'GitHub', authUrl: 'https://github.com/login/oauth/authorize', tokenUrl: 'https://github.com/login/oauth/access_token', userinfoUrl: 'https://api.github.com/user', scope: ['user:email'], fields: [] },
  { kind: 'microsoft', label: 'Microsoft', issuer: 'https://login.microsoftonline.com/common/v2.0', scope: ['openid', 'email', 'profile'], fields: ['microsoft_tenant'] },
  { kind: 'apple', label: 'Apple', issuer: 'https://appleid.apple.com', scope: ['email', 'name'], fields: ['apple_team_id', 'apple_private_key_id'] },
  { kind: 'gitlab', label: 'GitLab', issuer: 'https://gitlab.com', scope: ['openid', 'email', 'profile'], fields: ['issuer_url'] },
  { kind: 'discord', label: 'Discord', authUrl: 'https://discord.com/oauth2/authorize', tokenUrl: 'https://discord.com/api/oauth2/token', userinfoUrl: 'https://discord.com/api/users/@me', scope: ['identify', 'email'], fields: [] },
  { kind: 'slack', label: 'Slack', issuer: 'https://slack.com', scope: ['openid', 'email', 'profile'], fields: [] },
  { kind: 'facebook', label: 'Facebook', authUrl: 'https://www.facebook.com/v13.0/dialog/oauth', tokenUrl: 'https://graph.facebook.com/v13.0/oauth/access_token', userinfoUrl: 'https://graph.facebook.com/me?fields=id,name,email,picture', scope: ['email', 'public_profile'], fields: [] },
  { kind: 'auth0', label: 'Auth0', scope: ['openid', 'email', 'profile'], fields: ['issuer_url'] },
  { kind: 'spotify', label: 'Spotify', authUrl: 'https://accounts.spotify.com/authorize', tokenUrl: 'https://accounts.spotify.com/api/token', userinfoUrl: 'https://api.spotify.com/v1/me', scope: ['user-read-email'], fields: [] },
  { kind: 'linkedin', label: 'LinkedIn', issuer: 'https://www.linkedin.com/oauth', scope: ['openid', 'email', 'profile'], fields: [] },
  { kind: 'x', label: 'X', authUrl: 'https://twitter.com/i/oauth2/authorize', tokenUrl: 'https://api.twitter.com/2/oauth2/token', userinfoUrl: 'https://api.twitter.com/2/users/me', scope: ['users.read', 'tweet.read'], fields: [] },
  { kind: 'salesforce', label: 'Salesforce', issuer: 'https://login.salesforce.com', scope: ['openid', 'email', 'profile'], fields: ['issuer_url'] },
  { kind: 'amazon', label: 'Amazon', authUrl: 'https://www.amazon.com/ap/oa', tokenUrl: 'https://api.amazon.com/auth/o2/token', userinfoUrl: 'https://api.amazon.com/user/profile', scope: ['profile'], fields: [] },
  { kind: 'patreon', label: 'Patreon', authUrl: 'https://www.patreon.com/oauth2/authorize', tokenUrl: 'https://www.patreon.com/api/oauth2/token', userinfoUrl: 'https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=email,full_name', scope: ['identity', 'identity[email]'], fields: [] },
  { kind: 'yandex', label: 'Yandex', authUrl: 'https://oauth.yandex.com/authorize', tokenUrl: 'https://oauth.yandex.com/token', userinfoUrl: 'https://login.yandex.ru/info?format=json', scope: ['login:email', 'login:info'], fields: [] },
  { kind: 'vk', label: 'VK', authUrl: 'https://oauth.vk.com/authorize', tokenUrl: 'https://oauth.vk.com/access_token', userinfoUrl: 'https://api.vk.com/method/users.get', scope: ['email'], fields: [] },
];

export const socialProviderKind = (kind: string): SocialProviderKind | undefined => SOCIAL_PROVIDER_KINDS.find((k) => k.kind === kind);

/** Ory's redirect URI of a provider: where the provider sends the browser back with the code. */
export const socialRedirectUri = (tenantBase: string, providerId: string) =>
  `${tenantBase.replace(/\/+$/, '')}/self-service/methods/oidc/callback/${encodeURIComponent(providerId)}`;

/** A provider id as Ory accepts one in a URL path segment. */
export const SOCIAL_PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Ory's default claims mapping, used when a provider has no data mapper the identity service can run: the
 * standard OpenID Connect claims onto the traits an identity schema commonly declares.
 */
export function defaultClaimsMapping(claims: Record<string, unknown>, traitNames: readonly string[], nameIsObject: boolean): Record<string, unknown> {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const traits: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined && traitNames.includes(key)) traits[key] = value;
  };
  set('email', str(claims.email));
  const fullName = str(claims.name) ?? ([str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ') || undefined);
  if (nameIsObject) {
    const first = str(claims.given_name);
    const last = str(claims.family_name);
    if (first || last) set('name', { ...(first ? { first } : {}), ...(last ? { last } : {}) });
  } else set('name', fullName);
  set('first_name', str(claims.given_name));
  set('last_name', str(claims.family_name));
  set('username', str(claims.preferred_username) ?? str(claims.nickname));
  set('picture', str(claims.picture));
  set('avatar', str(claims.picture));
  set('website', str(claims.website));
  set('phone', str(claims.phone_number));
  set('phone_number', str(claims.phone_number));
  set('locale', str(claims.locale));
  return traits;
}

/** Top-level trait names of an identity schema, and whether its `name` trait is an object (first and last name). */
export function schemaTraitShape(schema: unknown): { names: string[]; nameIsObject: boolean } {
  const obj = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  const traits = obj(obj(obj(obj(schema)?.properties)?.traits)?.properties);
  return { names: Object.keys(traits ?? {}), nameIsObject: obj(traits?.name)?.type === 'object' };
}

/** The traits Ory's default claims mapping gives an identity of `schema` from a provider's `claims`. */
export function previewClaimsMapping(claims: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  const shape = schemaTraitShape(schema);
  return defaultClaimsMapping(claims, shape.names, shape.nameIsObject);
}
