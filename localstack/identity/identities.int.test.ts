import type { Identity } from '@ory/client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestStack } from '../test-support/control-plane';
import { identityCredentials } from './schema';
import { verifyPassword } from './password';
import type { LocalStack } from '../index';
import { adminApis, call, links, newUser, projectWithKey, uniqueEmail, type TestProject } from '../test-support/admin-api';

let stack: LocalStack;
let project: TestProject;
let api: ReturnType<typeof adminApis>['identity'];
let owner: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Identities');
  api = adminApis(project, project.key).identity;
});

afterAll(async () => {
  await stack?.close();
});

const create = async (email: string, extra: Record<string, unknown> = {}) =>
  (await api.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email, name: 'Ada' }, ...extra } })).data;

describe('identities through @ory/client with a project API key', () => {
  it('creates an identity and lists it (the done-when call)', async () => {
    const email = uniqueEmail('first');
    const created = await api.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email } } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      schema_id: 'default',
      schema_url: `${project.base}/schemas/ZGVmYXVsdA`,
      state: 'active',
      traits: { email },
      verifiable_addresses: [{ value: email, verified: false, via: 'email', status: 'pending' }],
      recovery_addresses: [{ value: email, via: 'email' }],
      metadata_public: null,
    });
    const listed = await api.listIdentities();
    expect(listed.status).toBe(200);
    expect(listed.data.map((i) => i.id)).toContain(created.data.id);
  });

  it('gets, replaces, patches and deletes an identity', async () => {
    const email = uniqueEmail('crud');
    const created = await create(email, { metadata_public: { plan: 'a' } });
    expect((await api.getIdentity({ id: created.id })).data).toMatchObject({ id: created.id, metadata_public: { plan: 'a' } });

    const renamed = uniqueEmail('renamed');
    const updated = await api.updateIdentity({
      id: created.id,
      updateIdentityBody: { schema_id: 'default', state: 'inactive', traits: { email: renamed }, metadata_admin: { note: 'x' } },
    });
    expect(updated.data).toMatchObject({ state: 'inactive', traits: { email: renamed }, metadata_admin: { note: 'x' }, metadata_public: null });
    expect(updated.data.verifiable_addresses?.map((a) => a.value)).toEqual([renamed]);
    expect(Date.parse(updated.data.state_changed_at!)).toBeGreaterThanOrEqual(Date.parse(created.state_changed_at!));

    const patched = await api.patchIdentity({
      id: created.id,
      jsonPatch: [
        { op: 'add', path: '/traits/name', value: 'Grace' },
        { op: 'replace', path: '/state', value: 'active' },
        { op: 'replace', path: '/verifiable_addresses/0/verified', value: true },
        { op: 'add', path: '/metadata_public', value: { tier: 2 } },
      ],
    });
    expect(patched.data).toMatchObject({
      state: 'active',
      traits: { email: renamed, name: 'Grace' },
      metadata_public: { tier: 2 },
      metadata_admin: { note: 'x' },
      verifiable_addresses: [{ value: renamed, verified: true, status: 'completed' }],
    });

    expect((await api.deleteIdentity({ id: created.id })).status).toBe(204);
    const gone = await failure(api.getIdentity({ id: created.id }));
    expect(gone.status).toBe(404);
    expect(gone.body.error).toEqual({ code: 404, status: 'Not Found', message: 'Unable to locate the resource' });
    expect((await failure(api.deleteIdentity({ id: created.id }))).status).toBe(404);
  });

  it('stores a password as an argon2 hash and shows only the credential identifier', async () => {
    const email = uniqueEmail('pw');
    const created = await create(email, { credentials: { password: { config: { password: 'a-Long-and-unusual-passw0rd' } } } });
    expect(created.credentials?.password).toMatchObject({ type: 'password', identifiers: [email] });
    expect(JSON.stringify(created)).not.toContain('argon2');
    const [row] = await stack.db.orm
      .select()
      .from(identityCredentials)
      .where(and(eq(identityCredentials.identity_id, created.id), eq(identityCredentials.type, 'password')));
    expect(row?.nid).toBe(project.id);
    expect(row?.secret).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row!.secret, 'a-Long-and-unusual-passw0rd')).toBe(true);
  });

  it('answers 409 for an identifier another identity of the project has, and writes nothing', async () => {
    const email = uniqueEmail('dup');
    await create(email);
    const before = (await api.listIdentities({ pageSize: 500 })).data.length;
    const conflict = await failure(create(email.toUpperCase()));
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ code: 409, reason: expect.stringMatching(/already exists/) });
    expect((await api.listIdentities({ pageSize: 500 })).data).toHaveLength(before);
  });

  it('filters by credentials_identifier and by ids', async () => {
    const email = uniqueEmail('find');
    const withPassword = await create(email, { credentials: { password: { config: { password: 'another-Long-passw0rd' } } } });
    const other = await create(uniqueEmail('other'));
    const found = await api.listIdentities({ credentialsIdentifier: email.toUpperCase() });
    expect(found.data.map((i) => i.id)).toEqual([withPassword.id]);
    expect((await api.listIdentities({ credentialsIdentifier: uniqueEmail('nobody') })).data).toEqual([]);
    const byIds = await api.listIdentities({ ids: [other.id, withPassword.id] });
    expect(byIds.data.map((i) => i.id).sort()).toEqual([other.id, withPassword.id].sort());
  });

  it('walks every page exactly once by following rel="next"', async () => {
    for (let i = 0; i < 7; i += 1) await create(uniqueEmail(`page${i}`));
    const all = (await api.listIdentities({ pageSize: 500 })).data.map((i) => i.id);
    expect(all.length).toBeGreaterThanOrEqual(7);
    const seen: string[] = [];
    let next: string | undefined = `/project-api/${project.slug}/admin/identities?page_size=3`;
    let pages = 0;
    while (next) {
      const page = await call(stack.url, 'GET', next, { key: project.key });
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.map((i: Identity) => i.id));
      expect(links(page).first).toBe(`/project-api/${project.slug}/admin/identities?page_size=3`);
      next = links(page).next;
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(all.length / 3));
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('pages a search that many identities match, in id order and newest first, each match exactly once', async () => {
    // Enough matches for whole pages from the next identities in order, and a last page the trigram indexes answer.
    const domain = `many${Date.now()}.example`;
    const matching: { id: string; at: number }[] = [];
    for (let i = 0; i < 7; i += 1) {
      const created = await create(`m${i}@${domain}`);
      matching.push({ id: created.id, at: Date.parse(created.created_at!) });
      await create(uniqueEmail(`other${i}`));
    }
    for (const order of ['', '&order=newest']) {
      const seen: string[] = [];
      let next: string | undefined = `/project-api/${project.slug}/admin/identities?page_size=2&preview_credentials_identifier_similar=@${domain}${order}`;
      while (next) {
        const page = await call(stack.url, 'GET', next, { key: project.key });
        expect(page.status).toBe(200);
        seen.push(...page.body.map((i: Identity) => i.id));
        next = links(page).next;
      }
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      const expected = order ? [...matching].sort((a, b) => b.at - a.at || byId(b, a)) : [...matching].sort(byId);
      expect(seen).toEqual(expected.map((m) => m.id));
    }
  });

  it('matches a search term within the email or within the name, never across the two', async () => {
    const email = uniqueEmail('span');
    const tag = email.slice('span-'.length, email.indexOf('@'));
    const created = await create(email, { traits: { email, name: `Name ${tag}` } });
    const search = async (term: string) =>
      (await api.listIdentities({ previewCredentialsIdentifierSimilar: term })).data.map((i) => i.id);
    expect(await search(`${tag}@example.com`)).toEqual([created.id]);
    expect(await search(`NAME ${tag}`)).toEqual([created.id]);
    expect(await search(`${tag}@example.com\nname ${tag}`)).toEqual([]);
  });

  it('refuses patches of read-only fields, naming the path, and changes nothing', async () => {
    const created = await create(uniqueEmail('guard'));
    for (const path of ['/id', '/credentials', '/created_at', '/schema_url', '/verifiable_addresses/0/value', '/recovery_addresses']) {
      const refused = await failure(api.patchIdentity({ id: created.id, jsonPatch: [{ op: 'replace', path, value: 'x' }] }));
      expect(refused.status).toBe(400);
      expect(`${refused.body.error.reason} ${refused.body.error.message}`).toContain(path);
    }
    const invalid = await failure(
      api.patchIdentity({ id: created.id, jsonPatch: [{ op: 'replace', path: '/traits/email', value: 'not-an-email' }] }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.reason).toContain('traits.email');
    const removed = await failure(api.patchIdentity({ id: created.id, jsonPatch: [{ op: 'remove', path: '/state' }] }));
    expect(removed.status).toBe(400);
    expect(removed.body.error.reason).toContain('state');
    const huge = await failure(
      api.patchIdentity({
        id: created.id,
        jsonPatch: [
          { op: 'add', path: '/metadata_admin', value: { blob: 'x'.repeat(600_000) } },
          { op: 'copy', from: '/metadata_admin', path: '/metadata_public' },
        ],
      }),
    );
    expect(huge.status).toBe(400);
    expect((await api.getIdentity({ id: created.id })).data).toEqual(created);
  });

  it("keeps an identity's organization_id as Ory does: set on create, kept by a replace, changed by a patch, cleared with its organization", async () => {
    const plan = await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: project.id, plan: 'Growth@0' }) });
    expect(plan.status).toBe(204);
    const { data: org } = await owner.projects.createOrganization({ projectId: project.id, organizationBody: { label: 'Members', domains: [] } });
    const { data: other } = await owner.projects.createOrganization({ projectId: project.id, organizationBody: { label: 'Others', domains: [] } });
    const member = await create(uniqueEmail('member'), { organization_id: org.id });
    expect(member.organization_id).toBe(org.id);
    expect((await create(uniqueEmail('plain'))).organization_id).toBeNull();

    // A replace (updateIdentityBody has no organization_id) keeps it; a patch moves it.
    const { data: replaced } = await api.updateIdentity({ id: member.id, updateIdentityBody: { schema_id: 'default', state: 'active', traits: member.traits } });
    expect(replaced.organization_id).toBe(org.id);
    const { data: moved } = await api.patchIdentity({ id: member.id, jsonPatch: [{ op: 'replace', path: '/organization_id', value: other.id }] });
    expect(moved.organization_id).toBe(other.id);
    expect((await api.listIdentities({ organizationId: other.id })).data.map((i) => i.id)).toEqual([member.id]);
    expect((await api.listIdentities({ organizationId: org.id })).data).toEqual([]);

    // Another project's organization is as unknown as none: refused by name, and nothing changes.
    const strangerUser = await newUser(stack, 'Stranger');
    const stranger = await projectWithKey(stack, strangerUser, 'Elsewhere');
    await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: stranger.id, plan: 'Growth@0' }) });
    const { data: theirs } = await strangerUser.projects.createOrganization({ projectId: stranger.id, organizationBody: { label: 'Theirs', domains: [] } });
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000001']) {
      const refused = await failure(api.patchIdentity({ id: member.id, jsonPatch: [{ op: 'replace', path: '/organization_id', value: id }] }));
      expect(refused.status).toBe(400);
      expect(refused.body.error.reason).toContain('organization_id');
    }
    expect((await api.getIdentity({ id: member.id })).data.organization_id).toBe(other.id);
    const badFilter = await failure(api.listIdentities({ organizationId: 'nope' }));
    expect(badFilter.body.error.reason).toBe('Invalid UUID value `nope` for parameter `organization_id`.');

    // Deleting the organization leaves its members as plain identities.
    await owner.projects.deleteOrganization({ projectId: project.id, organizationId: other.id });
    expect((await api.getIdentity({ id: member.id })).data.organization_id).toBeNull();
  });
});
