import { describe, expect, it } from 'vitest';
import { customDomainState } from '../../shared/domain/custom-domain';
import type { CnameAnswer } from '../kernel/dns';
import { statusesAfter } from './service';

/*
 * Every state a domain can be in (§4), and where each kind of DNS answer moves it: the right CNAME makes
 * it active, another target inactive, no record pending (never verified) or not-found (verified before),
 * and no answer at all leaves it as it was.
 */

const EXPECTED = 'slug.projects.oryapis.com';
const now = new Date('2026-01-02T03:04:05Z');
const earlier = new Date('2026-01-01T00:00:00Z');

const domains = {
  pending: { hostname: 'auth.example.test', ssl_status: 'initializing', verification_status: 'pending', verification_errors: [], verified_at: null },
  inactive: { hostname: 'auth.example.test', ssl_status: 'inactive', verification_status: 'failed', verification_errors: ['x'], verified_at: null },
  active: { hostname: 'auth.example.test', ssl_status: 'active', verification_status: 'active', verification_errors: [], verified_at: earlier },
  'not-found': { hostname: 'auth.example.test', ssl_status: 'pending_deletion', verification_status: 'deleted', verification_errors: ['x'], verified_at: earlier },
} as const;

const answers: Record<string, CnameAnswer> = {
  right: { kind: 'cname', target: EXPECTED },
  elsewhere: { kind: 'cname', target: 'elsewhere.example.net' },
  none: { kind: 'none' },
  unknown: { kind: 'unknown', reason: 'timeout' },
};

// From each state, the state each answer leads to.
const table: Array<[keyof typeof domains, keyof typeof answers, string]> = [
  ['pending', 'right', 'active'],
  ['pending', 'elsewhere', 'inactive'],
  ['pending', 'none', 'pending'],
  ['pending', 'unknown', 'pending'],
  ['inactive', 'right', 'active'],
  ['inactive', 'elsewhere', 'inactive'],
  ['inactive', 'none', 'pending'],
  ['inactive', 'unknown', 'inactive'],
  ['active', 'right', 'active'],
  ['active', 'elsewhere', 'inactive'],
  ['active', 'none', 'not-found'],
  ['active', 'unknown', 'active'],
  ['not-found', 'right', 'active'],
  ['not-found', 'elsewhere', 'inactive'],
  ['not-found', 'none', 'not-found'],
  ['not-found', 'unknown', 'not-found'],
];

describe('custom domain statuses after a DNS answer', () => {
  it.each(table)('%s, answered %s: %s', (from, answer, to) => {
    const domain = { ...domains[from], verification_errors: [...domains[from].verification_errors] };
    expect(customDomainState(domain)).toBe(from);
    const next = statusesAfter(domain, answers[answer]!, EXPECTED, now);
    expect(customDomainState(next)).toBe(to);
    if (answer === 'unknown') expect(next).toEqual({ ssl_status: domain.ssl_status, verification_status: domain.verification_status, verification_errors: domain.verification_errors, verified_at: domain.verified_at });
    // Verified once, a domain keeps the moment it was first verified; never verified, it gets it on the right record.
    if (answer === 'right') expect(next.verified_at).toEqual(domain.verified_at ?? now);
    if (answer === 'elsewhere') expect(next.verification_errors).toEqual([expect.stringContaining('elsewhere.example.net')]);
  });
});
