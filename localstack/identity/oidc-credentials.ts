import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { identities, identityCredentials } from './schema';

/*
 * Social sign-in links. Kratos keeps one `oidc` credential per identity whose identifiers are
 * `{provider}:{subject}`; here each linked provider is a row of its own, of type `oidc:{provider}`, so that
 * the table's keys hold Kratos' rules by themselves: a provider is linked to an identity once, and a
 * provider's subject belongs to one identity of the tenant. The admin API shows them merged as `oidc`.
 */

export const OIDC_TYPE_PREFIX = 'oidc:';
/** SAML links are kept the same way, as rows of type `saml:{provider}` shown merged as Kratos' `saml` credential. */
export const SAML_TYPE_PREFIX = 'saml:';
export type FederatedMethod = 'oidc' | 'saml';
export const oidcCredentialType = (provider: string, method: FederatedMethod = 'oidc') => `${method === 'saml' ? SAML_TYPE_PREFIX : OIDC_TYPE_PREFIX}${provider}`;
export const oidcIdentifier = (provider: string, subject: string) => `${provider}:${subject}`;

/** The identity (and its state) that linked `subject` of `provider`, if any. */
export async function findOidcLink(
  q: Queryable,
  nid: string,
  provider: string,
  subject: string,
  method: FederatedMethod = 'oidc',
): Promise<{ identity_id: string; state: string } | undefined> {
  const [row] = await q.orm
    .select({ identity_id: identityCredentials.identity_id, state: identities.state })
    .from(identityCredentials)
    .innerJoin(identities, and(eq(identities.id, identityCredentials.identity_id), eq(identities.nid, nid)))
    .where(
      and(
        eq(identityCredentials.nid, nid),
        eq(identityCredentials.type, oidcCredentialType(provider, method)),
        eq(identityCredentials.identifier, oidcIdentifier(provider, subject)),
      ),
    );
  return row;
}

/** Links `subject` of `provider` to the identity; a unique violation when either is linked already. */
export async function insertOidcLink(q: Queryable, nid: string, identityId: string, provider: string, subject: string, now: Date, method: FederatedMethod = 'oidc'): Promise<void> {
  await q.orm.insert(identityCredentials).values({
    nid,
    identity_id: identityId,
    type: oidcCredentialType(provider, method),
    identifier: oidcIdentifier(provider, subject),
    secret: JSON.stringify({ provider, subject }),
    created_at: now,
    updated_at: now,
  });
}

/**
 * The social providers the identity linked (`linked`), its SAML providers (`samlLinked`), and how many
 * first-factor credentials it has (an authenticator app or backup codes are none).
 */
export async function identityCredentialTypes(q: Queryable, nid: string, identityId: string): Promise<{ linked: string[]; samlLinked: string[]; count: number }> {
  const rows = await q.orm
    .select({ type: identityCredentials.type })
    .from(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId)));
  return {
    linked: rows.filter((r) => r.type.startsWith(OIDC_TYPE_PREFIX)).map((r) => r.type.slice(OIDC_TYPE_PREFIX.length)),
    samlLinked: rows.filter((r) => r.type.startsWith(SAML_TYPE_PREFIX)).map((r) => r.type.slice(SAML_TYPE_PREFIX.length)),
    count: rows.filter((r) => r.type !== 'totp' && r.type !== 'lookup_secret').length,
  };
}

export async function deleteOidcLink(q: Queryable, nid: string, identityId: string, provider: string, method: FederatedMethod = 'oidc'): Promise<boolean> {
  const rows = await q.orm
    .delete(identityCredentials)
    .where(
      and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, oidcCredentialType(provider, method))),
    )
    .returning({ type: identityCredentials.type });
  return rows.length > 0;
}
