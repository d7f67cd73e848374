import { z } from 'zod';
import { uuidSchema } from './common';
import { SOCIAL_PROVIDER_ID, SOCIAL_PROVIDER_KINDS } from '../domain/social-providers';

const projectId = uuidSchema;
const kinds = SOCIAL_PROVIDER_KINDS.map((k) => k.kind) as [string, ...string[]];

const providerId = z
  .string()
  .trim()
  .regex(SOCIAL_PROVIDER_ID, { error: 'Use 1 to 64 lower-case letters, digits, dashes or underscores, starting with a letter or digit' });
const text = (label: string, max = 1024) => z.string().trim().max(max, { error: `${label} has at most ${max} characters` });
const url = (label: string) =>
  text(label, 2048).refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), { error: `${label} must be an http(s) URL` });

/** A provider as the console shows it: the client secret is never answered, only whether one is set. */
export const socialProviderSchema = z.object({
  id: z.string(),
  provider: z.string(),
  label: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  issuer_url: z.string(),
  auth_url: z.string(),
  token_url: z.string(),
  microsoft_tenant: z.string(),
  scope: z.array(z.string()),
  mapper_url: z.string(),
  pkce: z.enum(['auto', 'force', 'never']),
  organization_id: z.string().nullable(),
});
export type SocialProviderView = z.infer<typeof socialProviderSchema>;

export const socialProvidersInput = z.object({ projectId });
export const socialProviderInput = z.object({ projectId, id: providerId });

export const socialProviderListOutput = z.object({
  revisionId: z.string(),
  /** `selfservice.methods.oidc.enabled`: the whole method on or off. */
  enabled: z.boolean(),
  providers: z.array(socialProviderSchema),
});
export const socialProviderOutput = socialProviderSchema;

/** Creating or editing a provider; an empty client secret on an edit keeps the stored one. */
export const setSocialProviderInput = z
  .object({
    projectId,
    id: providerId,
    provider: z.enum(kinds, { error: 'Pick a provider kind from the catalogue' }),
    label: text('The label', 64).optional(),
    client_id: text('The client ID', 255).min(1, { error: 'Give the client ID the provider issued' }),
    client_secret: text('The client secret', 1024).optional(),
    issuer_url: url('The issuer URL').optional(),
    auth_url: url('The authorization URL').optional(),
    token_url: url('The token URL').optional(),
    microsoft_tenant: text('The tenant', 255).optional(),
    scope: z.array(text('A scope', 255).min(1, { error: 'A scope cannot be empty' })).max(50, { error: 'At most 50 scopes' }).optional(),
    mapper_url: text('The mapper URL', 65_536).optional(),
    pkce: z.enum(['auto', 'force', 'never']).optional(),
    /** The organization whose users sign in with this provider (by their email domain); empty for everyone's button. */
    organization_id: z.union([uuidSchema, z.literal('')]).optional(),
    /** Whether the id must be new (adding a provider) or may name an existing one (editing it). */
    create: z.boolean().optional(),
  })
  .refine((v) => v.provider !== 'generic' || !!v.issuer_url || (!!v.auth_url && !!v.token_url), {
    error: 'A generic provider needs its issuer URL, or its authorization and token URLs',
    path: ['issuer_url'],
  });
export type SetSocialProviderInput = z.infer<typeof setSocialProviderInput>;

export const setSocialSignInEnabledInput = z.object({ projectId, enabled: z.boolean() });

export const socialProviderKindSchema = z.object({
  kind: z.string(),
  label: z.string(),
  issuer: z.string().optional(),
  authUrl: z.string().optional(),
  tokenUrl: z.string().optional(),
  userinfoUrl: z.string().optional(),
  scope: z.array(z.string()),
  fields: z.array(z.string()),
});
export const socialProviderCatalogueOutput = z.array(socialProviderKindSchema);
export const okOutput = z.object({ ok: z.literal(true) });
