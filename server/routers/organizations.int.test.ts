import type { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../test-support/localstack-data';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let owner: ReturnType<typeof callerFor>;
let stranger: ReturnType<typeof callerFor>;
let projectId: string;
let strangerProjectId: string;
let ownerCookie: string;
let projectSlug: string;

const errorId = (error: TRPCError) => (error.cause as { errorId?: string } | undefined)?.errorId;

beforeAll(async () => {
  stack = await startTestStack();
  const deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, {}), registerUser(stack.url, {})]);
  owner = callerFor(deps, a.cookie);
  ownerCookie = a.cookie;
  stranger = callerFor(deps, b.cookie);
  const [mine, theirs] = await Promise.all([
    owner.projects.create({ name: 'Orgs', environment: 'dev' }),
    stranger.projects.create({ name: 'Theirs', environment: 'dev' }),
  ]);
  [projectId, strangerProjectId, projectSlug] = [mine.id, theirs.id, mine.slug];
});

afterAll(async () => {
  await stack?.close();
});

describe('organizations', () => {
  it('is refused on a plan without organizations (feature_not_available naming the feature), and counts against Growth', async () => {
    const refused = await rejection(owner.organizations.create({ projectId, label: 'Acme' }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(errorId(refused)).toBe('feature_not_available');
    expect((refused.cause as { details?: { feature?: string } }).details?.feature).toBe('organizations');
    expect((await owner.organizations.list({ projectId })).organizations).toEqual([]);

    await setPlan(stack.stack.db, { kind: 'project', project: { id: projectId, workspace_id: null } }, 'Growth@0');
    expect(await owner.quota.get({ projectId, feature: 'organizations' })).toMatchObject({ included: 10, used: 0, can_use_more: true });
  });

  it('creates, lists by domain and pages, reads, edits and deletes organizations with the wire shapes', async () => {
    const acme = await owner.organizations.create({ projectId, label: 'Acme', domains: ['Acme.example.com', 'acme.example.org'] });
    expect(acme).toMatchObject({ label: 'Acme', domains: ['acme.example.com', 'acme.example.org'] });
    expect(acme.created_at).toMatch(/^\d{4}-/);
    const others = [];
    for (const n of [1, 2, 3]) others.push(await owner.organizations.create({ projectId, label: `Org ${n}`, domains: [`org${n}.example.com`] }));

    expect((await owner.organizations.list({ projectId, domain: 'acme.example.org' })).organizations.map((o) => o.id)).toEqual([acme.id]);
    expect((await owner.organizations.list({ projectId, domain: 'nobody.example.com' })).organizations).toEqual([]);

    const first = await owner.organizations.list({ projectId, pageSize: 3 });
    expect(first).toMatchObject({ has_next_page: true });
    const second = await owner.organizations.list({ projectId, pageSize: 3, pageToken: first.next_page_token });
    expect(second).toMatchObject({ has_next_page: false, next_page_token: '' });
    expect([...first.organizations, ...second.organizations].map((o) => o.label)).toEqual(['Acme', 'Org 1', 'Org 2', 'Org 3']);
    expect((await rejection(owner.organizations.list({ projectId, pageToken: 'not-a-token' }))).code).toBe('BAD_REQUEST');

    expect(await owner.organizations.get({ projectId, organizationId: acme.id })).toEqual(acme);
    const renamed = await owner.organizations.update({ projectId, organizationId: acme.id, label: 'Acme Inc' });
    expect(renamed).toMatchObject({ label: 'Acme Inc', domains: ['acme.example.com', 'acme.example.org'] });
    expect((await owner.organizations.update({ projectId, organizationId: acme.id, domains: ['acme.example.com'] })).domains).toEqual(['acme.example.com']);

    expect(await owner.quota.get({ projectId, feature: 'organizations' })).toMatchObject({ used: 4 });
    expect(await owner.organizations.delete({ projectId, organizationId: others[2]!.id })).toEqual({ ok: true });
    expect((await rejection(owner.organizations.get({ projectId, organizationId: others[2]!.id }))).code).toBe('NOT_FOUND');
    expect((await rejection(owner.organizations.delete({ projectId, organizationId: others[2]!.id }))).code).toBe('NOT_FOUND');
  });

  it('refuses invalid domains (spec §5) before sending, and a domain of another organization with CONFLICT', async () => {
    for (const domains of [['localhost'], ['-bad.example.com'], ['a..example.com'], ['x.example.com', 'X.example.com'], [`${'a'.repeat(64)}.example.com`]]) {
      expect((await rejection(owner.organizations.create({ projectId, label: 'Bad', domains }))).code).toBe('BAD_REQUEST');
    }
    expect((await rejection(owner.organizations.create({ projectId, label: '  ' }))).code).toBe('BAD_REQUEST');
    const taken = await rejection(owner.organizations.create({ projectId, label: 'Copycat', domains: ['org1.example.com'] }));
    expect(taken.code).toBe('CONFLICT');
    expect(taken.message).toContain('org1.example.com');
    const org2 = (await owner.organizations.list({ projectId, domain: 'org2.example.com' })).organizations[0]!;
    expect((await rejection(owner.organizations.update({ projectId, organizationId: org2.id, domains: ['org1.example.com'] }))).code).toBe('CONFLICT');
    // Nothing half-written: the refused edit left the domains as they were.
    expect((await owner.organizations.get({ projectId, organizationId: org2.id })).domains).toEqual(['org2.example.com']);
  });

  it('keeps organizations to their project: another user and another project see none of them', async () => {
    const [org] = (await owner.organizations.list({ projectId, pageSize: 1 })).organizations;
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(stranger.organizations.list({ projectId }))).code);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(stranger.organizations.get({ projectId, organizationId: org!.id }))).code);
    expect((await rejection(stranger.organizations.get({ projectId: strangerProjectId, organizationId: org!.id }))).code).toBe('NOT_FOUND');
    expect((await rejection(stranger.organizations.delete({ projectId: strangerProjectId, organizationId: org!.id }))).code).toBe('NOT_FOUND');
    expect((await rejection(stranger.onboardingLinks.list({ projectId: strangerProjectId, organizationId: org!.id }))).code).toBe('NOT_FOUND');
    expect((await owner.organizations.get({ projectId, organizationId: org!.id })).id).toBe(org!.id);
  });
});

describe('organizations.members', () => {
  it("counts the project's identities of the organization, and nobody else's", async () => {
    const [org, other] = (await owner.organizations.list({ projectId, pageSize: 2 })).organizations;
    expect(await owner.organizations.members({ projectId, organizationId: org!.id })).toEqual({ count: 0, more: false });
    // Identities given an organization through the admin API (as Ory's createIdentityBody allows), by a member's session.
    for (const [i, organizationId] of [org!.id, org!.id, other!.id, null].entries()) {
      const res = await fetch(`${stack.url}/project-api/${projectSlug}/admin/identities`, {
        method: 'POST',
        headers: { cookie: ownerCookie, 'content-type': 'application/json' },
        body: JSON.stringify({ schema_id: 'default', traits: { email: `member-${i}@org.example.com` }, organization_id: organizationId }),
      });
      expect(res.status).toBe(201);
    }
    expect(await owner.organizations.members({ projectId, organizationId: org!.id })).toEqual({ count: 2, more: false });
    expect(await owner.organizations.members({ projectId, organizationId: other!.id })).toEqual({ count: 1, more: false });
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(stranger.organizations.members({ projectId, organizationId: org!.id }))).code);
    expect((await rejection(stranger.organizations.members({ projectId: strangerProjectId, organizationId: org!.id }))).code).toBe('NOT_FOUND');
  });
});

describe('onboardingLinks', () => {
  it('creates expiring links, updates them by POST, lists and deletes them, within one organization', async () => {
    const [acme, other] = (await owner.organizations.list({ projectId, pageSize: 2 })).organizations;
    const now = stack.stack.clock.now().getTime();
    const link = await owner.onboardingLinks.create({ projectId, organizationId: acme!.id });
    expect(link).toMatchObject({ organization_id: acme!.id, project_id: projectId, enable_sso: true, enable_scim: false });
    expect(link.value).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(new Date(link.expires_at).getTime() - now).toBeGreaterThanOrEqual(7 * 24 * 3600_000 - 60_000);
    expect(new Date(link.expires_at).getTime() - now).toBeLessThanOrEqual(7 * 24 * 3600_000 + 60_000);

    const later = new Date(now + 2 * 24 * 3600_000).toISOString();
    const updated = await owner.onboardingLinks.update({ projectId, organizationId: acme!.id, linkId: link.id, enableSso: true, enableScim: true, expiresAt: later });
    expect(updated).toMatchObject({ id: link.id, enable_scim: true, value: link.value });
    expect(new Date(updated.expires_at).toISOString()).toBe(later);

    const past = new Date(now - 60_000).toISOString();
    expect((await rejection(owner.onboardingLinks.create({ projectId, organizationId: acme!.id, expiresAt: past }))).code).toBe('BAD_REQUEST');
    const tooFar = new Date(now + 91 * 24 * 3600_000).toISOString();
    expect((await rejection(owner.onboardingLinks.update({ projectId, organizationId: acme!.id, linkId: link.id, enableSso: true, enableScim: true, expiresAt: tooFar }))).code).toBe('BAD_REQUEST');

    // A link answers only under its own organization.
    expect((await rejection(owner.onboardingLinks.delete({ projectId, organizationId: other!.id, linkId: link.id }))).code).toBe('NOT_FOUND');
    expect((await owner.onboardingLinks.list({ projectId, organizationId: other!.id })).links).toEqual([]);
    expect((await owner.onboardingLinks.list({ projectId, organizationId: acme!.id })).links.map((l) => l.id)).toEqual([link.id]);
    expect(await owner.onboardingLinks.delete({ projectId, organizationId: acme!.id, linkId: link.id })).toEqual({ ok: true });
    expect((await owner.onboardingLinks.list({ projectId, organizationId: acme!.id })).links).toEqual([]);
  });

  it('is refused without the onboarding portal in the plan, and goes with its organization', async () => {
    const [acme] = (await owner.organizations.list({ projectId, pageSize: 1 })).organizations;
    await owner.onboardingLinks.create({ projectId, organizationId: acme!.id });
    await setPlan(stack.stack.db, { kind: 'project', project: { id: projectId, workspace_id: null } }, 'Production@0');
    const refused = await rejection(owner.onboardingLinks.create({ projectId, organizationId: acme!.id }));
    expect(errorId(refused)).toBe('feature_not_available');
    // Existing organizations stay readable and deletable after a downgrade; their links go with them.
    expect(await owner.organizations.delete({ projectId, organizationId: acme!.id })).toEqual({ ok: true });
    expect((await rejection(owner.onboardingLinks.list({ projectId, organizationId: acme!.id }))).code).toBe('NOT_FOUND');
  });
});
