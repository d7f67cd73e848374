import { describe, expect, it } from 'vitest';
import { anyDomainPending, customDomainPollInterval, canonicalHostname, cnameTarget, customDomainState, sslState, verificationState } from './custom-domain';

describe('custom domain state (spec §4)', () => {
  it('reads SSL statuses: the pending ones, active, and anything else as inactive', () => {
    for (const s of ['', 'initializing', 'pending_validation', 'pending_issuance', 'pending_deployment', undefined, null]) expect(sslState(s)).toBe('pending');
    expect(sslState('active')).toBe('active');
    for (const s of ['expired', 'deleted', 'inactive', 'pending_deletion', 'validation_timed_out']) expect(sslState(s)).toBe('inactive');
  });

  it('reads verification statuses: pending ones, active ones, deleted as not-found, anything else as inactive', () => {
    for (const s of ['initializing', 'pending_validation', 'pending_issuance', 'pending_deployment', 'pending']) expect(verificationState(s)).toBe('pending');
    expect(verificationState('active')).toBe('active');
    expect(verificationState('active_redeploying')).toBe('active');
    expect(verificationState('deleted')).toBe('not-found');
    for (const s of ['failed', 'blocked', '']) expect(verificationState(s)).toBe('inactive');
  });

  it('combines them: not-found wins, agreement, then pending, then inactive', () => {
    expect(customDomainState({ ssl_status: 'active', verification_status: 'deleted' })).toBe('not-found');
    expect(customDomainState({ ssl_status: 'initializing', verification_status: 'deleted' })).toBe('not-found');
    expect(customDomainState({ ssl_status: 'active', verification_status: 'active' })).toBe('active');
    expect(customDomainState({ ssl_status: 'expired', verification_status: 'failed' })).toBe('inactive');
    expect(customDomainState({ ssl_status: 'initializing', verification_status: 'pending' })).toBe('pending');
    expect(customDomainState({ ssl_status: 'expired', verification_status: 'pending' })).toBe('pending');
    expect(customDomainState({ ssl_status: 'active', verification_status: 'pending' })).toBe('pending');
    expect(customDomainState({ ssl_status: 'active', verification_status: 'failed' })).toBe('inactive');
    expect(customDomainState({ ssl_status: 'expired', verification_status: 'active_redeploying' })).toBe('inactive');
    expect(customDomainState({})).toBe('pending');
  });

  it('tells whether any domain is pending', () => {
    expect(anyDomainPending([])).toBe(false);
    expect(anyDomainPending([{ ssl_status: 'active', verification_status: 'active' }])).toBe(false);
    expect(anyDomainPending([{ ssl_status: 'active', verification_status: 'active' }, { verification_status: 'pending' }])).toBe(true);
  });

  it('names the CNAME target and compares host names as DNS does', () => {
    expect(cnameTarget('happy-fox-12')).toBe('happy-fox-12.projects.oryapis.com');
    expect(canonicalHostname(' Auth.Example.COM. ')).toBe('auth.example.com');
  });

  it('polls every 30 s while a domain is pending, and not at all otherwise', () => {
    expect(customDomainPollInterval([{ ssl_status: 'active', verification_status: 'active' }, { verification_status: 'pending' }])).toBe(30_000);
    expect(customDomainPollInterval([{ ssl_status: 'active', verification_status: 'active' }])).toBe(false);
    expect(customDomainPollInterval([])).toBe(false);
    expect(customDomainPollInterval(undefined)).toBe(false);
  });
});
