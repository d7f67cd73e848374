import type { CustomDomainState } from '../schemas/enums';

export type { CustomDomainState };

/** Spec §4: SSL statuses that count as pending (the empty string is Cloudflare's "not yet known"). */
export const SSL_PENDING_STATUSES: readonly string[] = [
  '',
  'initializing',
  'pending_validation',
  'pending_issuance',
  'pending_deployment',
];
export const SSL_ACTIVE_STATUSES: readonly string[] = ['active'];

/** Spec §4: verification statuses by state. */
export const VERIFICATION_PENDING_STATUSES: readonly string[] = [
  'initializing',
  'pending_validation',
  'pending_issuance',
  'pending_deployment',
  'pending',
];
export const VERIFICATION_ACTIVE_STATUSES: readonly string[] = ['active', 'active_redeploying'];
export const VERIFICATION_NOT_FOUND_STATUSES: readonly string[] = ['deleted'];

/**
 * Spec §4: the state an SSL status stands for. A missing status (null/undefined) is treated like the
 * empty string: not known yet, so pending. Anything unrecognised is inactive.
 */
export function sslState(status: string | null | undefined): CustomDomainState {
  const s = status ?? '';
  if (SSL_PENDING_STATUSES.includes(s)) return 'pending';
  if (SSL_ACTIVE_STATUSES.includes(s)) return 'active';
  return 'inactive';
}

/**
 * Spec §4: the state a verification status stands for. Unlike SSL, the empty string is not listed as
 * pending, so it (and a missing status) is inactive.
 */
export function verificationState(status: string | null | undefined): CustomDomainState {
  const s = status ?? '';
  if (VERIFICATION_PENDING_STATUSES.includes(s)) return 'pending';
  if (VERIFICATION_ACTIVE_STATUSES.includes(s)) return 'active';
  if (VERIFICATION_NOT_FOUND_STATUSES.includes(s)) return 'not-found';
  return 'inactive';
}

/**
 * Spec §4: the overall state from the two partial states. not-found wins; if both agree, that state;
 * otherwise pending if either is pending; otherwise inactive if either is inactive; otherwise active.
 */
export function combineCustomDomainStates(ssl: CustomDomainState, verification: CustomDomainState): CustomDomainState {
  if (ssl === 'not-found' || verification === 'not-found') return 'not-found';
  if (ssl === verification) return ssl;
  if (ssl === 'pending' || verification === 'pending') return 'pending';
  if (ssl === 'inactive' || verification === 'inactive') return 'inactive';
  return 'active';
}

/** Spec §4: a custom domain's state from its raw ssl_status and verification_status. */
export function deriveCustomDomainState(
  sslStatus: string | null | undefined,
  verificationStatus: string | null | undefined,
): CustomDomainState {
  return combineCustomDomainStates(sslState(sslStatus), verificationState(verificationStatus));
}

/** Spec §4: while any domain is pending, the list is polled. */
export function anyCustomDomainPending(
  domains: readonly { ssl_status?: string | null; verification_status?: string | null }[],
): boolean {
  return domains.some((d) => deriveCustomDomainState(d.ssl_status, d.verification_status) === 'pending');
}
