import type { Identity as OryIdentity, Session as OrySession } from '@ory/client';
import { z } from 'zod';
import { conformsTo } from './wire';

/** Identity traits of a console user (the console's own identity schema). */
export const consoleTraitsSchema = z.looseObject({
  email: z.string(),
  name: z.string().optional(),
});

export const identitySchema = conformsTo<OryIdentity>()(z.looseObject({
  id: z.string(),
  schema_id: z.string(),
  schema_url: z.string(),
  state: z.enum(['active', 'inactive']).optional(),
  traits: consoleTraitsSchema,
  metadata_public: z
    .looseObject({ github_username: z.string().optional() })
    .nullable()
    .optional(),
  verifiable_addresses: z
    .array(z.looseObject({ value: z.string(), verified: z.boolean(), via: z.enum(['email', 'sms']), status: z.string() }))
    .optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
}));
export type Identity = z.infer<typeof identitySchema>;

export const sessionSchema = conformsTo<OrySession>()(z.looseObject({
  id: z.string(),
  active: z.boolean().optional(),
  expires_at: z.string().optional(),
  authenticated_at: z.string().optional(),
  issued_at: z.string().optional(),
  authenticator_assurance_level: z.enum(['aal0', 'aal1', 'aal2', 'aal3']).optional(),
  identity: identitySchema.optional(),
}));

/** auth.session: the caller's session, or null when signed out. */
export const sessionOutput = z.object({ session: sessionSchema.nullable() });
export type Session = z.infer<typeof sessionSchema>;

/** One session of the caller's account as /settings/advanced lists it: when, how and from where. */
export const accountSessionSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  authenticated_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  aal: z.string().nullable(),
  /** The methods the session was proven with, in order (password, totp, lookup_secret, …). */
  methods: z.array(z.string()),
  /** The devices it was used from (user agent and address as the identity provider saw them). */
  devices: z.array(z.object({ user_agent: z.string().nullable(), ip_address: z.string().nullable(), location: z.string().nullable() })),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** auth.sessions: the caller's identity, its current session first, then its other working sessions, newest first. */
export const accountSessionsOutput = z.object({ identityId: z.string(), sessions: z.array(accountSessionSchema) });

/** auth.revokeSession: one other session of the caller's own account. */
export const revokeSessionInput = z.object({ sessionId: z.uuid({ message: 'sessionId: Must be a session id (a UUID)' }) });
export const revokeSessionOutput = z.object({ revoked: z.literal(true) });
/** auth.revokeOtherSessions: how many of the caller's other sessions ended. */
export const revokeOtherSessionsOutput = z.object({ count: z.number().int().min(0) });

/** auth.deleteAccount: the account's email address, typed to confirm that the account and everything of it goes. */
export const deleteAccountInput = z.object({
  confirmEmail: z.string().max(320, { message: 'confirmEmail: At most 320 characters' }).min(1, { message: 'Type your email address to confirm deletion' }),
});
export const deleteAccountOutput = z.object({ deleted: z.literal(true) });
export const DELETE_ACCOUNT_MISMATCH = 'Type your email address exactly to confirm deletion';
