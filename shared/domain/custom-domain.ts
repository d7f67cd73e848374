import { CUSTOM_DOMAIN_POLL_MS } from '../constants';
import type { CustomDomainState } from '../schemas/enums';

const SSL_PENDING = new Set(['', 'initializing', 'pending_validation', 'pending_issuance', 'pending_deployment']);
const VERIFICATION_PENDING = new Set(['initializing', 'pending_validation', 'pending_issuance', 'pending_deployment', 'pending']);
const VERIFICATION_ACTIVE = new Set(['active', 'active_redeploying']);

/** Spec §4: the state an SSL status stands for (absent counts as empty: pending). */
export function sslState(status: string | null | undefined): CustomDomainState {
  const s = status ?? '';
  if (SSL_PENDING.has(s)) return 'pending';
  return s === 'active' ? 'active' : 'inactive';
}

/** Spec §4: the state a verification status stands for. */
export function verificationState(status: string | null | undefined): CustomDomainState {
  const s = status ?? '';
  if (VERIFICATION_PENDING.has(s)) return 'pending';
  if (VERIFICATION_ACTIVE.has(s)) return 'active';
  return s === 'deleted' ? 'not-found' : 'inactive';
}

/**
 * Spec §4: a custom domain's state from its two statuses. Not-found wins; two that agree give that
 * state; otherwise pending if either is pending, inactive if either is inactive, else active.
 */
export function customDomainState(domain: { ssl_status?: string | null; verification_status?: string | null }): CustomDomainState {
  const ssl = sslState(domain.ssl_status);
  const verification = verificationState(domain.verification_status);
  if (ssl === 'not-found' || verification === 'not-found') return 'not-found';
  if (ssl === verification) return ssl;
  if (ssl === 'pending' || verification === 'pending') return 'pending';
  if (ssl === 'inactive' || verification === 'inactive') return 'inactive';
  return 'active';
}

/** Spec §4: while any domain is pending, the list is refetched. */
export const anyDomainPending = (domains: readonly { ssl_status?: string | null; verification_status?: string | null }[]): boolean =>
  domains.some((d) => customDomainState(d) === 'pending');

/** Spec §4 and §9: how often the list is fetched again, every 30 s while a domain is pending, else never. */
export const customDomainPollInterval = (
  domains: readonly { ssl_status?: string | null; verification_status?: string | null }[] | undefined,
): number | false => (domains && anyDomainPending(domains) ? CUSTOM_DOMAIN_POLL_MS : false);

/** Where a project's custom domain must point: a CNAME record to the project's own API host. */
export const CUSTOM_DOMAIN_CNAME_SUFFIX = 'projects.oryapis.com';
export const cnameTarget = (slug: string): string => `${slug}.${CUSTOM_DOMAIN_CNAME_SUFFIX}`;

/** A host name as DNS compares it: lower case, without the root's trailing dot. */
export const canonicalHostname = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');
