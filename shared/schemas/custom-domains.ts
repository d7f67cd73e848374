import type { CreateCustomDomainBody, CustomDomain, SetCustomDomainBody } from '@ory/client';
import { z } from 'zod';
import { domainNameSchema, originSchema } from '../domain/domain-name';
import { MESSAGES } from '../messages';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

/*
 * Custom domains of a project (spec §3, §4, §5, §7): Ory's customDomain on the wire (CONTRACT.md: every
 * field optional, the SSL status an enum, the verification status a free string).
 */

const sslStatusSchema = z.enum([
  'initializing', 'pending_validation', 'deleted', 'pending_issuance', 'pending_deployment', 'pending_deletion',
  'pending_expiration', 'expired', 'active', 'initializing_timed_out', 'validation_timed_out', 'issuance_timed_out',
  'deployment_timed_out', 'deletion_timed_out', 'pending_cleanup', 'staging_deployment', 'staging_active',
  'deactivating', 'inactive', 'backup_issued', 'holding_deployment', '',
]);

export const customDomainSchema = conformsTo<CustomDomain>()(
  z.looseObject({
    id: z.string().optional(),
    hostname: z.string().optional(),
    cookie_domain: z.string().optional(),
    custom_ui_base_url: z.string().optional(),
    cors_enabled: z.boolean().optional(),
    cors_allowed_origins: z.array(z.string()).optional(),
    ssl_status: sslStatusSchema.optional(),
    verification_status: z.string().optional(),
    verification_errors: z.array(z.string()).optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
  }),
);
export type CustomDomainView = z.infer<typeof customDomainSchema>;
export const customDomainListSchema = z.array(customDomainSchema);

const MAX_ORIGINS = 50;
const urlSchema = z
  .string()
  .trim()
  .max(2048, { error: 'A URL has at most 2048 characters.' })
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { error: 'Enter a URL starting with http:// or https://' });
const cookieDomainSchema = z.union([z.literal(''), domainNameSchema]);
const originsSchema = z.array(originSchema).max(MAX_ORIGINS, { error: `At most ${MAX_ORIGINS} origins.` });

/** The settings of a domain besides its host name: where cookies are set, the UI's URL and CORS. */
const settingsShape = {
  cookie_domain: cookieDomainSchema.optional(),
  custom_ui_base_url: urlSchema.optional(),
  cors_enabled: z.boolean().optional(),
  cors_allowed_origins: originsSchema.optional(),
};

/** createCustomDomainBody as the local stack takes it (the host name checked by spec §5). */
export const createCustomDomainBody = conformsTo<CreateCustomDomainBody>()(z.object({ hostname: domainNameSchema, ...settingsShape }));
/** setCustomDomainBody: the settings; a host name, when sent, must stay the domain's own. */
export const setCustomDomainBody = conformsTo<SetCustomDomainBody>()(z.object({ hostname: domainNameSchema.optional(), ...settingsShape }));

// ---- procedures ----
/** Spec §5: the list needs a project id; its absence is told in the spec's words. */
export const domainsListInput = z.object({
  projectId: z.uuid({ error: (issue) => (issue.input === undefined || issue.input === null || issue.input === '' ? MESSAGES.customDomainsProjectIdRequired : 'Must be a UUID') }),
});
export const domainSettingsInput = z.object({
  cookieDomain: cookieDomainSchema.optional(),
  customUiBaseUrl: urlSchema.optional(),
  corsEnabled: z.boolean().optional(),
  corsAllowedOrigins: originsSchema.optional(),
});
export const domainCreateInput = z.object({ projectId: uuidSchema, hostname: domainNameSchema, ...domainSettingsInput.shape });
export const domainUpdateInput = z.object({ projectId: uuidSchema, domainId: uuidSchema, ...domainSettingsInput.shape });
export const domainDeleteInput = z.object({ projectId: uuidSchema, domainId: uuidSchema });
export type DomainSettingsInput = z.infer<typeof domainSettingsInput>;
export const domainOkOutput = z.object({ ok: z.literal(true) });

/** The wire body of a procedure's settings (only the fields given). */
export function settingsBody(input: DomainSettingsInput): SetCustomDomainBody {
  return {
    ...(input.cookieDomain !== undefined ? { cookie_domain: input.cookieDomain } : {}),
    ...(input.customUiBaseUrl !== undefined ? { custom_ui_base_url: input.customUiBaseUrl } : {}),
    ...(input.corsEnabled !== undefined ? { cors_enabled: input.corsEnabled } : {}),
    ...(input.corsAllowedOrigins !== undefined ? { cors_allowed_origins: input.corsAllowedOrigins } : {}),
  };
}
