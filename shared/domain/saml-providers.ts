/**
 * SAML providers of a project, as Ory configures them in `selfservice.methods.saml.config.providers[]`: the
 * identity provider's metadata (its XML, and the URL it was read from), the entity id and single sign-on URL
 * read from it, how the assertion's attributes become traits, and the organization whose users it signs in.
 */

/** A provider id as Ory accepts one in a URL path segment (the same rule as social sign-in's). */
export const SAML_PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const base = (tenantBase: string) => tenantBase.replace(/\/+$/, '');

/** The service provider's metadata of a provider: what the identity provider's administrator imports. */
export const samlMetadataUrl = (tenantBase: string, providerId: string) => `${base(tenantBase)}/self-service/methods/saml/metadata/${encodeURIComponent(providerId)}`;

/** The assertion consumer service: where the identity provider posts its answer. */
export const samlAcsUrl = (tenantBase: string, providerId: string) => `${base(tenantBase)}/self-service/methods/saml/acs/${encodeURIComponent(providerId)}`;

/** The single logout service: where the identity provider posts logout requests and answers. */
export const samlSloUrl = (tenantBase: string, providerId: string) => `${base(tenantBase)}/self-service/methods/saml/slo/${encodeURIComponent(providerId)}`;

/** Traits an assertion's attributes can fill, and the attribute names read when a mapping names none. */
export const SAML_TRAITS = ['email', 'first_name', 'last_name', 'name'] as const;
export type SamlTrait = (typeof SAML_TRAITS)[number];

export const DEFAULT_SAML_ATTRIBUTES: Record<SamlTrait, readonly string[]> = {
  email: ['email', 'mail', 'emailAddress', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
  first_name: ['firstName', 'givenName', 'given_name', 'urn:oid:2.5.4.42', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'],
  last_name: ['lastName', 'sn', 'surname', 'family_name', 'urn:oid:2.5.4.4', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'],
  name: ['displayName', 'name', 'cn', 'urn:oid:2.16.840.1.113730.3.1.241', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'],
};

/** An attribute mapping: trait → the assertion attribute that holds it (empty: the defaults above). */
export type SamlAttributeMap = Partial<Record<SamlTrait, string>>;

const first = (v: unknown): string | undefined => {
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === 'string' && one.trim() !== '' ? one.trim() : undefined;
};

/**
 * The claims an assertion gives, in the names Ory's default claims mapping reads (`email`, `given_name`,
 * `family_name`, `name`): each from the mapped attribute, else the first default attribute present, and the
 * email from the name id when it is an address and no attribute holds one.
 */
export function samlClaims(attributes: Record<string, unknown>, nameId: string, map: SamlAttributeMap = {}): Record<string, string> {
  const pick = (trait: SamlTrait) => {
    const mapped = map[trait];
    if (mapped) return first(attributes[mapped]);
    for (const name of DEFAULT_SAML_ATTRIBUTES[trait]) {
      const v = first(attributes[name]);
      if (v) return v;
    }
    return undefined;
  };
  const claims: Record<string, string> = {};
  const email = pick('email') ?? (/^[^\s@]+@[^\s@]+$/.test(nameId) ? nameId : undefined);
  if (email) claims.email = email;
  const given = pick('first_name');
  const family = pick('last_name');
  if (given) claims.given_name = given;
  if (family) claims.family_name = family;
  const name = pick('name') ?? ([given, family].filter(Boolean).join(' ') || undefined);
  if (name) claims.name = name;
  return claims;
}
