import type { z } from 'zod';
import { CLIENT_LIFESPAN_FIELDS, type ClientLifespanField, type OAuth2ClientBody, type OAuth2ClientView, type oauth2ClientLifespansForm } from '../../../../shared/schemas/oauth2';

/** The client form's state: lists as one entry a line, metadata as JSON text, as people type them. */
export interface ClientForm {
  client_name: string;
  owner: string;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  grant_types: string[];
  response_types: string;
  scope: string;
  audience: string;
  token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
  access_token_strategy: '' | 'opaque' | 'jwt';
  skip_consent: boolean;
  jwks_uri: string;
  jwks: string;
  metadata: string;
}

export const EMPTY_FORM: ClientForm = {
  client_name: '',
  owner: '',
  redirect_uris: '',
  post_logout_redirect_uris: '',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: 'code',
  scope: 'openid offline_access',
  audience: '',
  token_endpoint_auth_method: 'client_secret_basic',
  access_token_strategy: '',
  skip_consent: false,
  jwks_uri: '',
  jwks: '',
  metadata: '',
};

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

const METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;

/** The form of an existing client. */
export function formOf(client: OAuth2ClientView): ClientForm {
  const method = METHODS.find((m) => m === client.token_endpoint_auth_method) ?? 'client_secret_basic';
  return {
    client_name: client.client_name ?? '',
    owner: client.owner ?? '',
    redirect_uris: (client.redirect_uris ?? []).join('\n'),
    post_logout_redirect_uris: (client.post_logout_redirect_uris ?? []).join('\n'),
    grant_types: client.grant_types ?? [],
    response_types: (client.response_types ?? []).join(' '),
    scope: client.scope ?? '',
    audience: (client.audience ?? []).join('\n'),
    token_endpoint_auth_method: method,
    access_token_strategy: client.access_token_strategy === 'jwt' || client.access_token_strategy === 'opaque' ? client.access_token_strategy : '',
    skip_consent: client.skip_consent === true,
    jwks_uri: client.jwks_uri ?? '',
    jwks: client.jwks ? JSON.stringify(client.jwks, null, 2) : '',
    metadata: client.metadata && Object.keys(client.metadata).length ? JSON.stringify(client.metadata, null, 2) : '',
  };
}

/**
 * The body the form sends, or the problem to fix. The scope goes as a list and the JWKS as text: the server
 * joins and parses them by the spec's rules.
 */
export function bodyOf(form: ClientForm): { body: OAuth2ClientBody } | { error: string } {
  let metadata: Record<string, unknown> | undefined;
  if (form.metadata.trim()) {
    try {
      const parsed: unknown = JSON.parse(form.metadata);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'Metadata must be a JSON object, such as {"team": "web"}.' };
      metadata = parsed as Record<string, unknown>;
    } catch {
      return { error: 'Metadata is not valid JSON: check its quotes and commas.' };
    }
  }
  return {
    body: {
      client_name: form.client_name.trim(),
      owner: form.owner.trim(),
      redirect_uris: lines(form.redirect_uris),
      post_logout_redirect_uris: lines(form.post_logout_redirect_uris),
      grant_types: form.grant_types as OAuth2ClientBody['grant_types'],
      response_types: form.response_types.split(/[\s,]+/).filter(Boolean),
      scope: form.scope.split(/\s+/).filter(Boolean),
      audience: lines(form.audience),
      token_endpoint_auth_method: form.token_endpoint_auth_method,
      ...(form.access_token_strategy ? { access_token_strategy: form.access_token_strategy } : {}),
      skip_consent: form.skip_consent,
      ...(form.jwks_uri.trim() ? { jwks_uri: form.jwks_uri.trim() } : {}),
      ...(form.jwks.trim() ? { jwks: form.jwks } : {}),
      ...(metadata ? { metadata } : {}),
    },
  };
}

export type LifespansForm = z.infer<typeof oauth2ClientLifespansForm>;

const GRANTS = [
  ['authorization_code_grant', 'Authorization code'],
  ['client_credentials_grant', 'Client credentials'],
  ['refresh_token_grant', 'Refresh token'],
  ['device_authorization_grant', 'Device code'],
  ['jwt_bearer_grant', 'JWT bearer'],
  ['implicit_grant', 'Implicit'],
] as const;
const TOKENS = [
  ['access_token', 'access tokens'],
  ['id_token', 'ID tokens'],
  ['refresh_token', 'refresh tokens'],
] as const;

/** The client's lifespan fields by grant, each with its words: 'Authorization code: access tokens'. */
export const LIFESPAN_GROUPS = GRANTS.map(([grant, grantLabel]) => ({
  grant,
  label: grantLabel,
  fields: TOKENS.flatMap(([token, tokenLabel]) => {
    const field = `${grant}_${token}_lifespan`;
    return (CLIENT_LIFESPAN_FIELDS as readonly string[]).includes(field) ? [{ field: field as ClientLifespanField, label: `${grantLabel}: ${tokenLabel}` }] : [];
  }),
})).filter((g) => g.fields.length > 0);

/** The client's lifespans as the form edits them: '' where the project's lifespan applies. */
export function lifespansOf(client: OAuth2ClientView): LifespansForm {
  return Object.fromEntries(CLIENT_LIFESPAN_FIELDS.map((f) => [f, client[f] ?? ''])) as LifespansForm;
}

/** The lifespans a client keeps when it is saved whole: a full save replaces the client, so they go with it. */
export function keptLifespans(lifespans: LifespansForm | null): Partial<LifespansForm> {
  return lifespans ? Object.fromEntries(Object.entries(lifespans).filter(([, v]) => v)) : {};
}
