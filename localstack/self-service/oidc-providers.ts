import * as client from 'openid-client';
import { configAt, tenantIdentityConfig, type JsonObject } from '../kernel/tenant-config';
import type { Queryable } from '../db/types';
import { OryError } from '../kernel/errors';
import { socialProviderKind } from '../../shared/domain/social-providers';

/** One entry of `selfservice.methods.oidc.config.providers[]` of a project's identity config. */
export interface SocialProvider {
  id: string;
  provider: string;
  label?: string;
  client_id: string;
  client_secret?: string;
  issuer_url?: string;
  auth_url?: string;
  token_url?: string;
  microsoft_tenant?: string;
  scope: string[];
  mapper_url?: string;
  organization_id?: string | null;
  pkce?: 'auto' | 'force' | 'never';
  /** Audiences besides the client id that an ID token submitted by a native app may be for (Kratos' `additional_id_token_audiences`). */
  additional_id_token_audiences: string[];
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function parseProvider(raw: unknown): SocialProvider | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const p = raw as JsonObject;
  const id = str(p.id);
  const clientId = str(p.client_id);
  if (!id || !clientId) return null;
  const pkce = p.pkce === 'force' || p.pkce === 'never' ? p.pkce : 'auto';
  return {
    id,
    provider: str(p.provider) ?? 'generic',
    ...(str(p.label) ? { label: str(p.label) } : {}),
    client_id: clientId,
    ...(str(p.client_secret) ? { client_secret: str(p.client_secret) } : {}),
    ...(str(p.issuer_url) ? { issuer_url: str(p.issuer_url) } : {}),
    ...(str(p.auth_url) ? { auth_url: str(p.auth_url) } : {}),
    ...(str(p.token_url) ? { token_url: str(p.token_url) } : {}),
    ...(str(p.microsoft_tenant) ? { microsoft_tenant: str(p.microsoft_tenant) } : {}),
    scope: Array.isArray(p.scope) ? p.scope.filter((s): s is string => typeof s === 'string') : [],
    ...(str(p.mapper_url) ? { mapper_url: str(p.mapper_url) } : {}),
    organization_id: str(p.organization_id) ?? null,
    pkce,
    additional_id_token_audiences: Array.isArray(p.additional_id_token_audiences)
      ? p.additional_id_token_audiences.filter((a): a is string => typeof a === 'string' && a !== '')
      : [],
  };
}

/**
 * The tenant's social sign-in providers: none when the method is switched off
 * (`selfservice.methods.oidc.enabled: false`) or the tenant configured none.
 */
export async function socialProviders(q: Queryable, nid: string): Promise<SocialProvider[]> {
  const config = await tenantIdentityConfig(q, nid);
  if (configAt(config, 'selfservice', 'methods', 'oidc', 'enabled') === false) return [];
  const list = configAt(config, 'selfservice', 'methods', 'oidc', 'config', 'providers');
  return Array.isArray(list) ? list.map(parseProvider).filter((p): p is SocialProvider => p !== null) : [];
}

/** The provider `id` of the tenant, or Kratos' refusal of an unknown one. */
export async function socialProvider(q: Queryable, nid: string, id: string): Promise<SocialProvider> {
  const found = (await socialProviders(q, nid)).find((p) => p.id === id);
  if (!found) {
    throw new OryError(404, {
      reason: `OpenID Connect Provider "${id}" is unknown or has not been configured`,
    });
  }
  return found;
}

/** What a button shows: the configured label, else the id (Kratos' AddProviders and link nodes). */
export const providerLabel = (p: SocialProvider) => p.label ?? p.id;

/** The provider named in the account-linking message: the configured label, else its kind (Kratos' populateAccountLinkingUI). */
export const linkingLabel = (p: SocialProvider) => p.label ?? p.provider;

const insecure = (url: string) => url.startsWith('http:');

/**
 * The provider as an openid-client configuration: discovered from its issuer (OpenID Connect), or built from
 * its OAuth2 endpoints. Plain-HTTP endpoints are allowed for providers on the same machine (tests, local use).
 */
export async function relyingParty(p: SocialProvider): Promise<{ config: client.Configuration; userinfoUrl?: string; oidc: boolean }> {
  const kind = socialProviderKind(p.provider);
  const auth = p.client_secret ? client.ClientSecretBasic(p.client_secret) : client.None();
  const issuer =
    p.issuer_url ?? (p.provider === 'microsoft' ? `https://login.microsoftonline.com/${p.microsoft_tenant ?? 'common'}/v2.0` : kind?.issuer);
  const authUrl = p.auth_url ?? kind?.authUrl;
  const tokenUrl = p.token_url ?? kind?.tokenUrl;
  try {
    if (authUrl && tokenUrl) {
      const config = new client.Configuration(
        { issuer: issuer ?? new URL(authUrl).origin, authorization_endpoint: authUrl, token_endpoint: tokenUrl },
        p.client_id,
        p.client_secret ? { client_secret: p.client_secret } : {},
        auth,
      );
      if (insecure(authUrl) || insecure(tokenUrl)) client.allowInsecureRequests(config);
      return { config, ...(kind?.userinfoUrl ? { userinfoUrl: kind.userinfoUrl } : {}), oidc: p.scope.includes('openid') && !!issuer };
    }
    if (!issuer) throw new Error('the provider has neither an issuer URL nor authorization and token URLs');
    const config = await client.discovery(new URL(issuer), p.client_id, p.client_secret ? { client_secret: p.client_secret } : {}, auth, {
      ...(insecure(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
      timeout: 10,
    });
    return { config, oidc: true };
  } catch (err) {
    throw new OryError(502, {
      reason: `Unable to initialize OpenID Connect Provider: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}
