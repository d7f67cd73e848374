import { z } from 'zod';
import { badRequest } from '../kernel/errors';

/** Longest plain-text password accepted (hashing is deliberately slow; the body limit alone is too generous). */
export const MAX_PASSWORD_BYTES = 4096;

const unsupported = (field: string, why: string) =>
  z
    .unknown()
    .refine((v) => v === undefined || v === null, { message: `${field} is not supported by this server: ${why}` })
    .optional();

const passwordConfig = z
  .object({
    password: z.string().min(1).max(MAX_PASSWORD_BYTES).optional(),
    // Its format and cost are checked against Kratos' rules in inputOf, with Kratos' reasons.
    hashed_password: z.string().max(1024).optional(),
    use_password_migration_hook: z.literal(false).optional(),
  })
  .strict()
  .refine((c) => !(c.password !== undefined && c.hashed_password !== undefined), {
    message: 'give either password or hashed_password, not both',
  });

const credentials = z
  .object({ password: z.object({ config: passwordConfig.optional() }).strict().optional() })
  .strict();

/** Metadata is a JSON object (or null), as the Identity model types it. */
const json = z.record(z.string(), z.unknown()).nullable();
const state = z.enum(['active', 'inactive']);

/** The fields both writes share; those this server cannot keep are refused rather than dropped. */
const common = {
  traits: z.record(z.string(), z.unknown()),
  credentials: credentials.optional(),
  metadata_public: json.optional(),
  metadata_admin: json.optional(),
  external_id: unsupported('external_id', 'identities have no external id here'),
  region: z.string().optional(),
};

/** createIdentityBody (Kratos reads it strictly: an unknown field is a 400). */
export const createIdentityBody = z
  .object({
    ...common,
    schema_id: z.string().default('default'),
    state: state.default('active'),
    // One of the project's organizations (checked against them when written), or null for none.
    organization_id: z.uuid({ error: 'organization_id must be the UUID of one of the project\'s organizations, or null' }).nullable().optional(),
    verifiable_addresses: unsupported('verifiable_addresses', 'addresses follow the email trait'),
    recovery_addresses: unsupported('recovery_addresses', 'addresses follow the email trait'),
  })
  .strict();

/** updateIdentityBody: the full identity but its credentials (which it may set). */
export const updateIdentityBody = z.object({ ...common, schema_id: z.string(), state }).strict();

export type CreateIdentityInput = z.infer<typeof createIdentityBody>;
export type UpdateIdentityInput = z.infer<typeof updateIdentityBody>;

/** The password (plain or an imported hash) a body sets, if any. */
export function passwordOf(body: { credentials?: z.infer<typeof credentials> | undefined }): { plain?: string; hash?: string } {
  const config = body.credentials?.password?.config;
  if (body.credentials?.password && !config?.password && !config?.hashed_password) {
    throw badRequest('credentials.password.config: give password or hashed_password');
  }
  return { ...(config?.password ? { plain: config.password } : {}), ...(config?.hashed_password ? { hash: config.hashed_password } : {}) };
}
