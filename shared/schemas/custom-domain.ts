import { z } from 'zod';
import { domainNameSchema, originSchema } from '../domain/domain-name';

/** The control plane's customDomain: every field optional, unknown fields pass through. */
export const customDomainSchema = z.looseObject({
  id: z.string().optional(),
  hostname: z.string().optional(),
  cookie_domain: z.string().optional(),
  custom_ui_base_url: z.string().optional(),
  cors_enabled: z.boolean().optional(),
  cors_allowed_origins: z.array(z.string()).optional(),
  /** Kept as a string: unknown values derive to 'inactive' (see domain/custom-domain-state). */
  ssl_status: z.string().optional(),
  verification_status: z.string().optional(),
  verification_errors: z.array(z.string()).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type CustomDomain = z.infer<typeof customDomainSchema>;

export const COOKIE_DOMAIN_MESSAGE = 'The cookie domain must be the custom domain or one of its parent domains';

const baseUrlSchema = z.url({ protocol: /^https?$/, message: 'Must be an http:// or https:// URL' });

const bodyFields = {
  cookie_domain: domainNameSchema.optional(),
  custom_ui_base_url: baseUrlSchema.optional(),
  cors_enabled: z.boolean().optional(),
  cors_allowed_origins: z.array(originSchema).optional(),
};

/** Whether `cookieDomain` is `hostname` or a parent of it (case and a trailing dot ignored). */
export function isCookieDomainOf(cookieDomain: string, hostname: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\.$/, '');
  const cookie = norm(cookieDomain);
  const host = norm(hostname);
  return host === cookie || host.endsWith(`.${cookie}`);
}

function checkCookieDomain(
  body: { hostname?: string | undefined; cookie_domain?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.hostname && body.cookie_domain && !isCookieDomainOf(body.cookie_domain, body.hostname)) {
    ctx.addIssue({ code: 'custom', path: ['cookie_domain'], message: COOKIE_DOMAIN_MESSAGE });
  }
}

/** createCustomDomainBody: the hostname is required. */
export const createCustomDomainBodySchema = z
  .object({ hostname: domainNameSchema, ...bodyFields })
  .superRefine(checkCookieDomain);
export type CreateCustomDomainBody = z.infer<typeof createCustomDomainBodySchema>;

/** setCustomDomainBody: every field optional. */
export const setCustomDomainBodySchema = z
  .object({ hostname: domainNameSchema.optional(), ...bodyFields })
  .superRefine(checkCookieDomain);
export type SetCustomDomainBody = z.infer<typeof setCustomDomainBodySchema>;
