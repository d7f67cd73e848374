import type { RecoveryCodeForIdentity, RecoveryLinkForIdentity } from '@ory/client';
import { z } from 'zod';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

const projectId = uuidSchema;
const identityId = uuidSchema;
const pageToken = z.string().max(1024, { error: 'Page token is too long' }).optional();

/** Traits as the identity schema wants them: an object (the schema validates the rest). */
export const traitsSchema = z.record(z.string().max(256), z.unknown(), { error: 'Traits must be an object' });
const metadataSchema = z.record(z.string().max(256), z.unknown(), { error: 'Metadata must be a JSON object' }).nullable();

export const identityStateSchema = z.enum(['active', 'inactive'], { error: 'State must be active or inactive' });

export const identitiesListInput = z.object({
  projectId,
  /** Any part of an identifier, an email, a name or an id ("@example.com" finds a whole domain). */
  search: z.string().trim().max(256, { error: 'Search at most 256 characters' }).optional(),
  state: z.enum(['active', 'inactive'], { error: 'State is active or inactive' }).optional(),
  schemaId: z.string().min(1).max(512, { error: 'Schema ID at most 512 characters' }).optional(),
  pageToken,
});
export const identityRefInput = z.object({ projectId, identityId });
export const identityCreateInput = z.object({
  projectId,
  schemaId: z.string().min(1, { error: 'Choose an identity schema' }).max(256),
  traits: traitsSchema,
  state: identityStateSchema.optional(),
});
export const identityUpdateInput = z.object({
  projectId,
  identityId,
  traits: traitsSchema.optional(),
  metadataPublic: metadataSchema.optional(),
  metadataAdmin: metadataSchema.optional(),
});
export const identityStateInput = z.object({ projectId, identityId, state: identityStateSchema });
export const identityCredentialInput = z.object({
  projectId,
  identityId,
  type: z.enum(['password', 'oidc', 'totp', 'lookup_secret', 'webauthn', 'code', 'passkey', 'profile', 'saml', 'link_recovery', 'code_recovery'], { error: 'Not a credential type' }),
});
export const identityImportInput = z.object({
  projectId,
  identities: z
    .array(
      z.object({
        schemaId: z.string().min(1).max(256).default('default'),
        traits: traitsSchema,
        state: identityStateSchema.optional(),
        /** A password hash to import as it is (argon2, bcrypt, …), or none. */
        passwordHash: z.string().min(1).max(1024).optional(),
        metadataPublic: metadataSchema.optional(),
        metadataAdmin: metadataSchema.optional(),
      }),
    )
    .min(1, { error: 'Import at least one identity' })
    .max(1000, { error: 'Import at most 1,000 identities at a time' }),
});

/** A credential without its config: whatever secret it holds (a password hash, tokens) never reaches the browser. */
const credentialSchema = z.object({
  type: z.string().optional(),
  identifiers: z.array(z.string()).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  version: z.number().optional(),
});
const verifiableAddressSchema = z.object({
  value: z.string(),
  via: z.string(),
  verified: z.boolean(),
  status: z.string(),
  verified_at: z.string().nullish(),
});
const recoveryAddressSchema = z.object({ value: z.string(), via: z.string() });

/** Ory's Identity as the console shows it (credentials without their secrets). */
export const identitySchema = z.object({
  id: z.string(),
  schema_id: z.string(),
  schema_url: z.string().optional(),
  state: z.string().optional(),
  traits: z.record(z.string(), z.unknown()),
  credentials: z.record(z.string(), credentialSchema).optional(),
  verifiable_addresses: z.array(verifiableAddressSchema).optional(),
  recovery_addresses: z.array(recoveryAddressSchema).optional(),
  metadata_public: z.unknown().optional(),
  metadata_admin: z.unknown().optional(),
  /** The organization whose single sign-on registered it (Ory's Identity.organization_id), or null. */
  organization_id: z.string().nullish(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type IdentityAnswer = z.infer<typeof identitySchema>;

/** Addresses of an import file, to learn which belong to identities of the project already (its dry run). */
export const existingAddressesInput = z.object({
  projectId,
  addresses: z
    .array(z.string().trim().min(1).max(320, { error: 'An address is at most 320 characters' }))
    .min(1, { error: 'Give at least one address' })
    .max(1000, { error: 'Give at most 1,000 addresses at a time' }),
});
export const existingAddressesOutput = z.object({ existing: z.array(z.string()) });

/** `total`: every identity of the project (null when the identity provider does not say). */
export const identitiesListOutput = z.object({ identities: z.array(identitySchema), nextPageToken: z.string().nullable(), total: z.number().int().nonnegative().nullable() });
export const identitySchemasOutput = z.array(z.object({ id: z.string(), schema: z.unknown() }));
export const recoveryCodeOutput = conformsTo<RecoveryCodeForIdentity>()(z.object({ recovery_link: z.string(), recovery_code: z.string(), expires_at: z.string().optional() }));
/** A link that signs the identity in once and opens its settings, to set a new password. */
export const recoveryLinkOutput = conformsTo<RecoveryLinkForIdentity>()(z.object({ recovery_link: z.string(), expires_at: z.string().optional() }));
export const importOutput = z.object({
  results: z.array(z.object({ index: z.number(), ok: z.boolean(), identityId: z.string().nullable(), error: z.string().nullable() })),
  imported: z.number(),
  failed: z.number(),
});

const deviceSchema = z.object({ id: z.string(), ip_address: z.string().optional(), user_agent: z.string().optional(), location: z.string().optional() });
/** Ory's Session, with its identity when the list expands it. */
export const sessionSchema = z.object({
  id: z.string(),
  active: z.boolean().optional(),
  authenticated_at: z.string().optional(),
  expires_at: z.string().optional(),
  issued_at: z.string().optional(),
  authenticator_assurance_level: z.string().optional(),
  authentication_methods: z.array(z.object({ method: z.string().optional(), aal: z.string().optional(), completed_at: z.string().optional() })).optional(),
  devices: z.array(deviceSchema).optional(),
  identity: identitySchema.nullish(),
});
export const sessionsListInput = z.object({ projectId, identityId: identityId.optional(), pageToken });
export const sessionRefInput = z.object({ projectId, sessionId: uuidSchema });
export const sessionsListOutput = z.object({ sessions: z.array(sessionSchema), nextPageToken: z.string().nullable() });
export const okOutput = z.object({ ok: z.literal(true) });

export const checkTraitsInput = z.object({
  projectId,
  schemaId: z.string().min(1, { error: 'Choose an identity schema' }).max(256),
  traits: z.array(traitsSchema).min(1, { error: 'Check at least one identity' }).max(1000, { error: 'Check at most 1,000 identities at a time' }),
});
/** For each traits object checked, its failures by field path (empty when it fits the schema). */
export const checkTraitsOutput = z.object({ errors: z.array(z.record(z.string(), z.string())) });
