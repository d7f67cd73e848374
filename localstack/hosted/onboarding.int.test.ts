import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../project/schema';
import type { LocalStack } from '../index';
import { newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// The onboarding portal, driven as a browser without an account: GET the link's page, POST its form with the
// anti-CSRF cookie the page set. What the page may change is the one organization's provider, nothing else.

let stack: LocalStack;
let owner: TestUser;
let project: TestProject;
let other: TestProject;
let otherOwner: TestUser;
let corp: { id: string; label: string };
let beta: { id: string; label: string };
let corpToken: string;
let betaToken: string;
let otherToken: string;

const DAY_MS = 24 * 3600_000;

function browser() {
  const jar = new Map<string, string>();
  const go = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  return { go };
}

const portal = (p: TestProject, token: string) => `${p.base}/ui/onboarding/${token}`;
const csrfOf = (html: string) => html.match(/name="csrf_token" value="([^"]+)"/)?.[1] ?? '';

async function providers(p: TestProject, user: TestUser) {
  const { data } = await user.projects.getProject({ projectId: p.id });
  const list = (data.services.identity?.config as any)?.selfservice?.methods?.oidc?.config?.providers;
  return { revision: data.revision_id, list: (Array.isArray(list) ? list : []) as Record<string, any>[] };
}

async function growth(id: string) {
  const res = await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: id, plan: 'Growth@0' }) });
  expect(res.status).toBe(204);
}

/** The project's current revision, read in the database (the owner's session does not outlive a moved clock). */
async function revisionOf(p: TestProject) {
  const [row] = await stack.db.orm.select({ revision: projects.current_revision_id }).from(projects).where(eq(projects.id, p.id));
  return row?.revision;
}

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Portal');
  otherOwner = await newUser(stack, 'Other');
  project = await projectWithKey(stack, owner, 'Portal');
  other = await projectWithKey(stack, otherOwner, 'Elsewhere');
  await growth(project.id);
  await growth(other.id);
  corp = (await owner.projects.createOrganization({ projectId: project.id, organizationBody: { label: 'Corp', domains: ['corp.example.com'] } })).data;
  beta = (await owner.projects.createOrganization({ projectId: project.id, organizationBody: { label: 'Beta', domains: ['beta.example.com'] } })).data;
  const theirs = (await otherOwner.projects.createOrganization({ projectId: other.id, organizationBody: { label: 'Theirs', domains: [] } })).data;
  const link = async (user: TestUser, projectId: string, organizationId: string, body: { enable_sso: boolean; enable_scim: boolean }) =>
    (await user.projects.createOrganizationOnboardingPortalLink({ projectId, organizationId, createOrganizationOnboardingPortalLinkBody: body })).data.value;
  corpToken = await link(owner, project.id, corp.id, { enable_sso: true, enable_scim: false });
  betaToken = await link(owner, project.id, beta.id, { enable_sso: false, enable_scim: true });
  otherToken = await link(otherOwner, other.id, theirs.id, { enable_sso: true, enable_scim: false });
});

afterAll(async () => {
  await stack?.close();
});

describe('the onboarding portal', () => {
  it("sets up the link's organization's provider, and only that one, without an account", async () => {
    const b = browser();
    const page = await b.go(portal(project, corpToken));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Set up single sign-on for <strong>Corp</strong>');
    expect(page.html).toContain('<code>corp.example.com</code>');
    expect(page.html).not.toContain('Beta');
    expect(page.html).not.toContain('onboarding-scim');

    // Without the page's anti-CSRF cookie nothing is written.
    const before = await providers(project, owner);
    const forged = await browser().go(portal(project, corpToken), { csrf_token: 'forged', issuer_url: 'https://idp.corp.example.com', client_id: 'c', client_secret: 's' });
    expect(forged.status).toBe(403);
    expect((await providers(project, owner)).revision).toBe(before.revision);

    // Invalid fields come back on the form, with a 400 and nothing written.
    const invalid = await b.go(portal(project, corpToken), { csrf_token: csrfOf(page.html), issuer_url: 'ftp://idp', client_id: '', client_secret: 's' });
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain('The issuer URL must be an https URL');
    expect(invalid.html).toContain('Give the client ID your identity provider issued');
    expect((await providers(project, owner)).revision).toBe(before.revision);

    // A field naming another organization, or another provider, is no field of the form: it changes nothing of theirs.
    const saved = await b.go(portal(project, corpToken), {
      csrf_token: csrfOf(page.html),
      issuer_url: 'https://idp.corp.example.com',
      client_id: 'corp-client',
      client_secret: 'corp-secret',
      organization_id: beta.id,
      id: 'acme',
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${portal(project, corpToken)}?saved=1`);
    const after = await providers(project, owner);
    expect(after.list).toHaveLength(1);
    expect(after.list[0]).toMatchObject({
      provider: 'generic',
      label: 'Corp',
      client_id: 'corp-client',
      client_secret: 'corp-secret',
      issuer_url: 'https://idp.corp.example.com',
      scope: ['openid', 'email', 'profile'],
      organization_id: corp.id,
    });
    const id = after.list[0]!.id as string;
    expect(id).toMatch(/^sso-[0-9a-f]{8}$/);

    // Back on the page: saved, the provider's redirect URI, the secret kept when left empty on an edit.
    const again = await b.go(saved.location!);
    expect(again.html).toContain('data-testid="onboarding-saved"');
    expect(again.html).toContain(`${project.base}/self-service/methods/oidc/callback/${id}`);
    expect(again.html).toContain('value="corp-client"');
    expect(again.html).not.toContain('corp-secret');
    const edited = await b.go(portal(project, corpToken), { csrf_token: csrfOf(again.html), issuer_url: 'https://idp.corp.example.com', client_id: 'corp-client-2', client_secret: '', scope: 'openid email' });
    expect(edited.status).toBe(303);
    const last = await providers(project, owner);
    expect(last.list).toHaveLength(1);
    expect(last.list[0]).toMatchObject({ id, client_id: 'corp-client-2', client_secret: 'corp-secret', scope: ['openid', 'email'], organization_id: corp.id });
  });

  it("honours the link's flags: no single sign-on form without enable_sso, the SCIM note with enable_scim", async () => {
    const b = browser();
    const page = await b.go(portal(project, betaToken));
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="onboarding-sso-off"');
    expect(page.html).toContain('data-testid="onboarding-scim"');
    expect(page.html).not.toContain('onboarding-form');
    const before = await providers(project, owner);
    const refused = await b.go(portal(project, betaToken), { csrf_token: csrfOf(page.html), issuer_url: 'https://idp.beta.example.com', client_id: 'b', client_secret: 's' });
    expect(refused.status).toBe(403);
    expect((await providers(project, owner)).revision).toBe(before.revision);
  });

  it("refuses another project's link, a deleted link and an expired one with a page that says so", async () => {
    const b = browser();
    // A token is good on its own project's address only.
    for (const [p, token] of [[project, otherToken], [other, corpToken], [project, 'no-such-token']] as const) {
      const res = await b.go(portal(p, token));
      expect(res.status).toBe(404);
      expect(res.html).toContain('This onboarding link does not exist or has been deleted.');
    }
    const page = await b.go(portal(project, corpToken));
    const csrf = csrfOf(page.html);

    const { data: links } = await owner.projects.getOrganizationOnboardingPortalLinks({ projectId: project.id, organizationId: beta.id });
    await owner.projects.deleteOrganizationOnboardingPortalLink({ projectId: project.id, organizationId: beta.id, onboardingPortalLinkId: links.links[0]!.id });
    expect((await b.go(portal(project, betaToken))).status).toBe(404);

    const before = await revisionOf(project);
    stack.clock.advance(8 * DAY_MS);
    const expired = await b.go(portal(project, corpToken));
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('This onboarding link expired on');
    const late = await b.go(portal(project, corpToken), { csrf_token: csrf, issuer_url: 'https://late.example.com', client_id: 'late', client_secret: 'late' });
    expect(late.status).toBe(410);
    expect(await revisionOf(project)).toBe(before);
  });
});
