import { configAt, tenantIdentityConfig, type JsonObject } from '../kernel/tenant-config';
import type { Queryable } from '../db/types';
import { OryError } from '../kernel/errors';
import { SAML_TRAITS, type SamlAttributeMap } from '../../shared/domain/saml-providers';

/** One entry of `selfservice.methods.saml.config.providers[]` of a project's identity config. */
export interface SamlProvider {
  id: string;
  label?: string;
  /** The identity provider's metadata, as stored when the provider was saved. */
  raw_idp_metadata_xml: string;
  attributes_map: SamlAttributeMap;
  organization_id?: string | null;
  /** Whether the AuthnRequests sent to it are signed with the tenant's key (on unless `sign_requests: false`). */
  sign_requests: boolean;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function parseProvider(raw: unknown): SamlProvider | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const p = raw as JsonObject;
  const id = str(p.id);
  const xml = str(p.raw_idp_metadata_xml);
  if (!id || !xml || p.state === 'disabled') return null;
  const map = (typeof p.attributes_map === 'object' && p.attributes_map !== null ? p.attributes_map : {}) as JsonObject;
  const attributes_map: SamlAttributeMap = {};
  for (const trait of SAML_TRAITS) if (str(map[trait])) attributes_map[trait] = str(map[trait]);
  return { id, ...(str(p.label) ? { label: str(p.label) } : {}), raw_idp_metadata_xml: xml, attributes_map, organization_id: str(p.organization_id) ?? null, sign_requests: p.sign_requests !== false };
}

/**
 * The tenant's SAML providers in force: none when the method is switched off
 * (`selfservice.methods.saml.enabled: false`); a provider switched off (`state: disabled`) is left out.
 */
export async function samlProviders(q: Queryable, nid: string): Promise<SamlProvider[]> {
  const config = await tenantIdentityConfig(q, nid);
  if (configAt(config, 'selfservice', 'methods', 'saml', 'enabled') === false) return [];
  const list = configAt(config, 'selfservice', 'methods', 'saml', 'config', 'providers');
  return Array.isArray(list) ? list.map(parseProvider).filter((p): p is SamlProvider => p !== null) : [];
}

/** The provider `id` of the tenant, or Kratos' refusal of an unknown one. */
export async function samlProvider(q: Queryable, nid: string, id: string): Promise<SamlProvider> {
  const found = (await samlProviders(q, nid)).find((p) => p.id === id);
  if (!found) throw new OryError(404, { reason: `SAML Provider "${id}" is unknown or has not been configured` });
  return found;
}

export const samlProviderLabel = (p: SamlProvider) => p.label ?? p.id;
