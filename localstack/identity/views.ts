import type { Identity, IdentityCredentials, RecoveryIdentityAddress, VerifiableIdentityAddress } from '@ory/client';
import type { StoredIdentity } from './admin-store';


const iso = (d: Date) => d.toISOString();

/**
 * An identity in Ory's wire format. Credentials show their type, identifiers and times; a credential's
 * config only when `include` names its type (Kratos' include_credential).
 */
export function identityView(identity: StoredIdentity, tenantBase: string, include: readonly string[] = []): Identity {
  const { row } = identity;
  const credentials: Record<string, IdentityCredentials> = {};
  for (const c of identity.credentials) {
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
  return {
    id: row.id,
    schema_id: row.schema_id,
    // Kratos names the schema by its id, base64url-encoded.
    schema_url: `${tenantBase}/schemas/${Buffer.from(row.schema_id).toString('base64url')}`,
    state: row.state as Identity['state'],
    state_changed_at: iso(row.state_changed_at),
    traits: row.traits,
    credentials,
    verifiable_addresses: identity.verifiable.map(
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
    ),
    recovery_addresses: identity.recovery.map(
      (a) =>
        ({ id: a.id, value: a.value, via: a.via, created_at: iso(a.created_at), updated_at: iso(a.updated_at) }) satisfies RecoveryIdentityAddress,
    ),
    metadata_public: (row.metadata_public ?? null) as Identity['metadata_public'],
    metadata_admin: (row.metadata_admin ?? null) as Identity['metadata_admin'],
    organization_id: null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  } satisfies Identity;
}
