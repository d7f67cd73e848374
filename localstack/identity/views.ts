import type { Identity, IdentityCredentials, RecoveryIdentityAddress, VerifiableIdentityAddress } from '@ory/client';
import type { StoredIdentity } from './store';
import { OIDC_TYPE_PREFIX, SAML_TYPE_PREFIX } from './oidc-credentials';

const iso = (d: Date) => d.toISOString();

/**
 * Who sees an identity: the admin API (credentials, metadata_admin) or the identity itself through the
 * public API (whoami, a settings flow, a registration's answer), which sees neither.
 */
export type IdentityAudience = 'admin' | 'public';

/**
 * An identity in Ory's wire format, for the admin API. Credentials show their type, identifiers and
 * times; a credential's config only when `include` names its type (Kratos' include_credential).
 */
export function identityView(identity: StoredIdentity, tenantBase: string, include: readonly string[] = []): Identity {
  return renderIdentity(identity, tenantBase, 'admin', include);
}

/** An identity as the public API shows it to itself: no credentials, no admin metadata. */
export function publicIdentityView(identity: StoredIdentity, tenantBase: string): Identity {
  return renderIdentity(identity, tenantBase, 'public', []);
}

/**
 * The one rendering of an identity. The public form keeps Kratos' field order of its self-service answers
 * (organization_id last), the admin form Kratos' admin order; both are pinned by the wire tests.
 */
function renderIdentity(identity: StoredIdentity, tenantBase: string, audience: IdentityAudience, include: readonly string[]): Identity {
  const { row } = identity;
  const head = {
    id: row.id,
    schema_id: row.schema_id,
    // Kratos names the schema by its id, base64url-encoded.
    schema_url: `${tenantBase}/schemas/${Buffer.from(row.schema_id).toString('base64url')}`,
    state: row.state as Identity['state'],
    state_changed_at: iso(row.state_changed_at),
    traits: row.traits,
  };
  const verifiable_addresses = identity.verifiable.map(
    (a) =>
      ({
        id: a.id,
        value: a.value,
        verified: a.verified,
        via: a.via as VerifiableIdentityAddress['via'],
        status: a.status,
        ...(a.verified_at ? { verified_at: iso(a.verified_at) } : {}),
        created_at: iso(a.created_at),
        updated_at: iso(a.updated_at),
      }) satisfies VerifiableIdentityAddress,
  );
  const recovery_addresses = identity.recovery.map(
    (a) =>
      ({ id: a.id, value: a.value, via: a.via, created_at: iso(a.created_at), updated_at: iso(a.updated_at) }) satisfies RecoveryIdentityAddress,
  );
  const metadata_public = (row.metadata_public ?? null) as Identity['metadata_public'];
  const times = { created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
  if (audience === 'public') {
    return { ...head, verifiable_addresses, recovery_addresses, metadata_public, ...times, organization_id: row.organization_id ?? null } satisfies Identity;
  }
  return {
    ...head,
    credentials: credentialsView(identity, include),
    verifiable_addresses,
    recovery_addresses,
    metadata_public,
    metadata_admin: (row.metadata_admin ?? null) as Identity['metadata_admin'],
    organization_id: row.organization_id ?? null,
    ...times,
  } satisfies Identity;
}

function credentialsView(identity: StoredIdentity, include: readonly string[]): Record<string, IdentityCredentials> {
  const credentials: Record<string, IdentityCredentials> = {};
  for (const c of identity.credentials) {
    const federated = c.type.startsWith(OIDC_TYPE_PREFIX) ? 'oidc' : c.type.startsWith(SAML_TYPE_PREFIX) ? 'saml' : null;
    if (federated) {
      // Social and SAML links show as Kratos' one `oidc` (or `saml`) credential with an identifier per linked provider.
      const merged = credentials[federated];
      credentials[federated] = {
        type: federated,
        identifiers: [...(merged?.identifiers ?? []), c.identifier],
        ...(include.includes(federated)
          ? { config: { providers: [...(((merged?.config as { providers?: unknown[] } | undefined)?.providers) ?? []), JSON.parse(c.secret) as unknown] } }
          : {}),
        version: 0,
        created_at: iso(merged && merged.created_at! < iso(c.created_at) ? new Date(merged.created_at!) : c.created_at),
        updated_at: iso(c.updated_at),
      } satisfies IdentityCredentials;
      continue;
    }
    credentials[c.type] = {
      type: c.type as IdentityCredentials['type'],
      identifiers: [c.identifier],
      // `include_credential=password` publishes the credential's config, as Kratos does.
      ...(include.includes(c.type) && c.type === 'password' ? { config: { hashed_password: c.secret } } : {}),
      version: 0,
      created_at: iso(c.created_at),
      updated_at: iso(c.updated_at),
    } satisfies IdentityCredentials;
  }
  return credentials;
}
