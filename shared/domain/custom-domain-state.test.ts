import { describe, expect, it } from 'vitest';
import {
  anyCustomDomainPending,
  combineCustomDomainStates,
  deriveCustomDomainState,
  sslState,
  verificationState,
} from './custom-domain-state';

describe('sslState', () => {
  it.each([
    ['', 'pending'],
    [null, 'pending'],
    [undefined, 'pending'],
    ['initializing', 'pending'],
    ['pending_validation', 'pending'],
    ['pending_issuance', 'pending'],
    ['pending_deployment', 'pending'],
    ['active', 'active'],
    // every other value of the control plane's ssl_status enum is inactive
    ['deleted', 'inactive'],
    ['pending_deletion', 'inactive'],
    ['pending_expiration', 'inactive'],
    ['expired', 'inactive'],
    ['initializing_timed_out', 'inactive'],
    ['validation_timed_out', 'inactive'],
    ['issuance_timed_out', 'inactive'],
    ['deployment_timed_out', 'inactive'],
    ['deletion_timed_out', 'inactive'],
    ['pending_cleanup', 'inactive'],
    ['staging_deployment', 'inactive'],
    ['staging_active', 'inactive'],
    ['deactivating', 'inactive'],
    ['inactive', 'inactive'],
    ['backup_issued', 'inactive'],
    ['holding_deployment', 'inactive'],
    // values the verification side knows, and near misses
    ['pending', 'inactive'],
    ['active_redeploying', 'inactive'],
    ['ACTIVE', 'inactive'],
    [' active', 'inactive'],
    ['unknown', 'inactive'],
  ])('%j → %s', (status, expected) => {
    expect(sslState(status)).toBe(expected);
  });
});

describe('verificationState', () => {
  it.each([
    ['initializing', 'pending'],
    ['pending_validation', 'pending'],
    ['pending_issuance', 'pending'],
    ['pending_deployment', 'pending'],
    ['pending', 'pending'],
    ['active', 'active'],
    ['active_redeploying', 'active'],
    ['deleted', 'not-found'],
    ['', 'inactive'],
    [null, 'inactive'],
    [undefined, 'inactive'],
    ['expired', 'inactive'],
    ['blocked', 'inactive'],
    ['pending_deletion', 'inactive'],
    ['Deleted', 'inactive'],
    ['PENDING', 'inactive'],
    ['unknown', 'inactive'],
  ])('%j → %s', (status, expected) => {
    expect(verificationState(status)).toBe(expected);
  });
});

describe('combineCustomDomainStates (all 16 pairs)', () => {
  it.each([
    // not-found wins
    ['not-found', 'not-found', 'not-found'],
    ['not-found', 'pending', 'not-found'],
    ['not-found', 'active', 'not-found'],
    ['not-found', 'inactive', 'not-found'],
    ['pending', 'not-found', 'not-found'],
    ['active', 'not-found', 'not-found'],
    ['inactive', 'not-found', 'not-found'],
    // both agree
    ['pending', 'pending', 'pending'],
    ['active', 'active', 'active'],
    ['inactive', 'inactive', 'inactive'],
    // pending if either is pending
    ['pending', 'active', 'pending'],
    ['active', 'pending', 'pending'],
    ['pending', 'inactive', 'pending'],
    ['inactive', 'pending', 'pending'],
    // inactive if either is inactive
    ['active', 'inactive', 'inactive'],
    ['inactive', 'active', 'inactive'],
  ] as const)('ssl %s × verification %s → %s', (ssl, verification, expected) => {
    expect(combineCustomDomainStates(ssl, verification)).toBe(expected);
  });
});

describe('deriveCustomDomainState', () => {
  it.each([
    // a freshly added domain
    ['', 'pending', 'pending'],
    ['initializing', 'pending', 'pending'],
    [null, null, 'pending'],
    [undefined, undefined, 'pending'],
    ['', '', 'pending'],
    ['active', 'active', 'active'],
    ['active', 'active_redeploying', 'active'],
    ['active', 'pending', 'pending'],
    ['pending_deployment', 'active', 'pending'],
    ['active', '', 'inactive'],
    ['active', 'unknown', 'inactive'],
    ['expired', 'active', 'inactive'],
    ['expired', 'expired', 'inactive'],
    ['expired', 'pending', 'pending'],
    ['unknown', 'initializing', 'pending'],
    ['active', 'deleted', 'not-found'],
    ['', 'deleted', 'not-found'],
    ['deleted', 'deleted', 'not-found'],
    ['deleted', 'active', 'inactive'],
  ])('ssl %j × verification %j → %s', (ssl, verification, expected) => {
    expect(deriveCustomDomainState(ssl, verification)).toBe(expected);
  });
});

describe('anyCustomDomainPending', () => {
  it.each([
    [[], false],
    [[{ ssl_status: 'active', verification_status: 'active' }], false],
    [[{ ssl_status: 'active', verification_status: 'deleted' }], false],
    [
      [
        { ssl_status: 'active', verification_status: 'active' },
        { ssl_status: '', verification_status: 'pending' },
      ],
      true,
    ],
    [[{}], true],
  ])('%j → %s', (domains, expected) => {
    expect(anyCustomDomainPending(domains)).toBe(expected);
  });
});
