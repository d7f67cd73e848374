import type { Identity, IdentityCredentials, Session } from '@ory/client';
import { z } from 'zod';
import { conformsTo } from '../../shared/schemas/wire';

/**
 * The identity and session answers of the admin and public APIs, as the routes promise them: `route()` checks
 * each answer against these in development and tests (an answer that drifts is a 500 there, never a silent
 * change on the wire). Ory's models stay the types; these say what the stack always sends.
 */
const time = z.iso.datetime({ offset: true });

const credentialAnswer = conformsTo<IdentityCredentials>()(
  z.strictObject({
    type: z.enum(['password', 'oidc', 'totp', 'lookup_secret', 'webauthn', 'code', 'passkey', 'profile', 'saml', 'link_recovery', 'code_recovery']),
    identifiers: z.array(z.string()),
    config: z.record(z.string(), z.unknown()).optional(),
    version: z.number().int(),
    created_at: time,
    updated_at: time,
  }),
);

const verifiableAddressAnswer = z.strictObject({
  id: z.uuid(),
  value: z.string(),
  verified: z.boolean(),
  via: z.enum(['email', 'sms']),
  status: z.string(),
  verified_at: time.optional(),
  created_at: time,
  updated_at: time,
});

const recoveryAddressAnswer = z.strictObject({ id: z.uuid(), value: z.string(), via: z.string(), created_at: time, updated_at: time });

/** Metadata as the stack stores it: a JSON object or array, or null. */
const metadata = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()), z.null()]);

const identityFields = {
  id: z.uuid(),
  schema_id: z.string().min(1),
  schema_url: z.url(),
  state: z.enum(['active', 'inactive']),
  state_changed_at: time,
  traits: z.unknown(),
  verifiable_addresses: z.array(verifiableAddressAnswer),
  recovery_addresses: z.array(recoveryAddressAnswer),
  metadata_public: metadata,
  organization_id: z.uuid().nullable(),
  created_at: time,
  updated_at: time,
};

/** An identity as the admin API answers it: credentials without secrets unless asked for, admin metadata. */
export const identityAnswer = conformsTo<Identity>()(
  z.strictObject({ ...identityFields, credentials: z.record(z.string(), credentialAnswer), metadata_admin: metadata }),
);

/** An identity as the public API shows it to itself: neither credentials nor admin metadata. */
export const publicIdentityAnswer = conformsTo<Identity>()(z.strictObject(identityFields));

const authenticationMethod = z.looseObject({
  method: z.enum(['password', 'oidc', 'totp', 'lookup_secret', 'webauthn', 'code', 'passkey', 'profile', 'saml', 'deviceauthn', 'identifier_first', 'link_recovery', 'code_recovery']),
  aal: z.enum(['aal1', 'aal2', 'aal3']), completed_at: time });
const device = z.looseObject({ id: z.uuid(), ip_address: z.string().optional(), user_agent: z.string().optional(), location: z.string().optional() });

/** A session as Kratos answers it, with its identity when the answer carries one. */
export const sessionAnswer = conformsTo<Session>()(
  z.looseObject({
    id: z.uuid(),
    active: z.boolean(),
    expires_at: time,
    authenticated_at: time,
    issued_at: time,
    authenticator_assurance_level: z.enum(['aal0', 'aal1', 'aal2', 'aal3']),
    authentication_methods: z.array(authenticationMethod),
    devices: z.array(device).optional(),
    identity: z.union([identityAnswer, publicIdentityAnswer]).optional(),
  }),
);
