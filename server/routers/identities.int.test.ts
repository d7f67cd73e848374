import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontendApi, registerUser, signInToProject, signUpToProject } from '../test-support/users';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import type { AppDeps } from '../deps';
import { compiledSchemaCount, MAX_COMPILED_SCHEMAS } from '../../shared/domain/identity-schema-compiler';

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let outsider: Caller;
let projectId: string;
let slug: string;
let otherProjectId: string;
let ownerCookie: string;

const ARGON2 = '$argon2id$v=19$m=16,t=2,p=1$c29tZXNhbHQ$d0wZ9ZC2yQZ9kDk3WQkq6A';

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Identity Owner' }), registerUser(stack.url, { name: 'Identity Outsider' })]);
  owner = callerFor(deps, a.cookie);
  ownerCookie = a.cookie;
  outsider = callerFor(deps, b.cookie);
  const project = await owner.projects.create({ name: 'People', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
  otherProjectId = (await outsider.projects.create({ name: 'Elsewhere', environment: 'dev' })).id;
});
afterAll(async () => {
  await stack?.close();
});

describe('identities through the BFF, on the project data plane', () => {
  it('creates identities from the schema, refusing traits that do not fit it with the field named', async () => {
    const schemas = await owner.identities.schemas({ projectId });
    expect(schemas.map((s) => s.id)).toContain('default');
    const bad = await rejection(owner.identities.create({ projectId, schemaId: 'default', traits: { email: 'not-an-email' } }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/traits\.email/);
    const checked = await owner.identities.checkTraits({ projectId, schemaId: 'default', traits: [{ email: 'fine@example.com' }, { email: 'nope', shoe: 1 }, {}] });
    expect(checked.errors).toEqual([{}, { email: 'Must be a valid email', shoe: 'Is not a trait of this schema' }, { email: 'Required' }]);
    expect((await rejection(owner.identities.checkTraits({ projectId, schemaId: 'no-such-schema', traits: [{}] }))).code).toBe('NOT_FOUND');
    const made = await owner.identities.create({ projectId, schemaId: 'default', traits: { email: 'ada@example.com', name: 'Ada Lovelace' } });
    expect(made).toMatchObject({ schema_id: 'default', state: 'active', traits: { email: 'ada@example.com' } });
  });

  it('checks traits on RE2 and keeps its compiled schemas to a bound, however many schemas pass through', async () => {
    const owned = await owner.projects.create({ name: 'Many schemas', environment: 'dev' });
    const schemaOf = (i: number) => ({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { traits: { type: 'object', properties: { email: { type: 'string', format: 'email' }, code: { type: 'string', pattern: '^(a+)+$' }, [`extra_${i}`]: { type: 'string' } } } },
    });
    const count = MAX_COMPILED_SCHEMAS + 8;
    const schemas = Array.from({ length: count }, (_, i) => ({ id: `s${i}`, url: `base64://${Buffer.from(JSON.stringify(schemaOf(i))).toString('base64')}` }));
    const patched = await fetch(`${stack.url}/projects/${owned.id}`, {
      method: 'PATCH',
      headers: { cookie: ownerCookie, 'content-type': 'application/json' },
      body: JSON.stringify([{ op: 'add', path: '/services/identity/config/identity', value: { schemas, default_schema_id: 's0' } }]),
    });
    expect(patched.status).toBe(200);

    // 30 characters cost a backtracking engine about 2^30 steps; RE2 answers at once.
    const start = performance.now();
    const redos = await owner.identities.checkTraits({ projectId: owned.id, schemaId: 's0', traits: [{ code: `${'a'.repeat(30)}!` }, { code: 'aaa' }] });
    expect(redos.errors).toEqual([{ code: 'Does not have the expected form' }, {}]);
    expect(performance.now() - start).toBeLessThan(5000);

    for (let from = 0; from < count; from += 8) {
      const ids = Array.from({ length: Math.min(8, count - from) }, (_, k) => `s${from + k}`);
      const checked = await Promise.all(ids.map((schemaId) => owner.identities.checkTraits({ projectId: owned.id, schemaId, traits: [{ email: 'nope' }] })));
      expect(checked.map((c) => c.errors)).toEqual(ids.map(() => [{ email: 'Must be a valid email' }]));
      expect(compiledSchemaCount()).toBeLessThanOrEqual(MAX_COMPILED_SCHEMAS);
    }
    expect(compiledSchemaCount()).toBe(MAX_COMPILED_SCHEMAS);
  }, 120_000);

  it('searches by any part of an identifier, by name and by id, a page at a time', async () => {
    const grace = await owner.identities.create({ projectId, schemaId: 'default', traits: { email: 'grace@example.com', name: 'Grace Hopper' } });
    await owner.identities.create({ projectId, schemaId: 'default', traits: { email: 'linus@other.org', name: 'Linus' } });
    const emails = async (search: string) => (await owner.identities.list({ projectId, search })).identities.map((i) => i.traits.email).sort();
    expect(await emails('@example.com')).toEqual(['ada@example.com', 'grace@example.com']);
    expect(await emails('OTHER.O')).toEqual(['linus@other.org']);
    expect(await emails('hopper')).toEqual(['grace@example.com']);
    expect(await emails(grace.id)).toEqual(['grace@example.com']);
    expect(await emails('100%_not_there')).toEqual([]);
    const all = await owner.identities.list({ projectId });
    expect(all.identities.length).toBeGreaterThanOrEqual(3);
  });

  it('imports a batch, keeping the valid rows whole and nothing of the invalid ones', async () => {
    const answer = await owner.identities.import({
      projectId,
      identities: [
        { schemaId: 'default', traits: { email: 'imported-1@import.test', name: 'One' }, passwordHash: ARGON2 },
        { schemaId: 'default', traits: { email: 'broken' } },
        { schemaId: 'default', traits: { email: 'imported-2@import.test' } },
        { schemaId: 'default', traits: { email: 'imported-1@import.test' } },
      ],
    });
    expect(answer.results.map((r) => r.ok)).toEqual([true, false, true, false]);
    expect(answer).toMatchObject({ imported: 2, failed: 2 });
    expect(answer.results[1]!.error).toMatch(/traits\.email/);
    const imported = (await owner.identities.list({ projectId, search: '@import.test' })).identities;
    expect(imported.map((i) => i.traits.email).sort()).toEqual(['imported-1@import.test', 'imported-2@import.test']);
    // The hash was imported as given: the identity has a password credential, and its secret is not shown.
    const withPassword = await owner.identities.get({ projectId, identityId: answer.results[0]!.identityId! });
    expect(withPassword.credentials?.password?.identifiers).toEqual(['imported-1@import.test']);
    expect(JSON.stringify(withPassword)).not.toContain('argon2');
  });

  it('edits traits and metadata, deactivates, removes a credential, issues a usable recovery code, and deletes', async () => {
    const user = await signUpToProject(stack.url, slug, 'edited@example.com');
    const edited = await owner.identities.update({ projectId, identityId: user.identityId, traits: { email: 'edited@example.com', name: 'Renamed' }, metadataPublic: { plan: 'pro' } });
    expect(edited).toMatchObject({ traits: { name: 'Renamed' }, metadata_public: { plan: 'pro' } });
    expect((await rejection(owner.identities.update({ projectId, identityId: user.identityId, traits: { email: 42 } }))).code).toBe('BAD_REQUEST');

    const recovery = await owner.identities.createRecoveryCode({ projectId, identityId: user.identityId });
    expect(recovery.recovery_code).toMatch(/^\d{6}$/);
    const flowId = new URL(recovery.recovery_link).searchParams.get('flow')!;
    const redeemed = await frontendApi(`${stack.url}/project-api/${slug}`).updateRecoveryFlow({ flow: flowId, updateRecoveryFlowBody: { method: 'code', code: recovery.recovery_code } });
    expect(JSON.stringify(redeemed.data.continue_with)).toContain('set_ory_session_token');

    expect((await owner.identities.setState({ projectId, identityId: user.identityId, state: 'inactive' })).state).toBe('inactive');
    const ids = async (filter: { state?: 'active' | 'inactive'; schemaId?: string }) => (await owner.identities.list({ projectId, ...filter })).identities.map((i) => i.id);
    expect(await ids({ state: 'inactive' })).toEqual([user.identityId]);
    expect(await ids({ state: 'active' })).not.toContain(user.identityId);
    expect(await ids({ schemaId: 'default', state: 'inactive' })).toEqual([user.identityId]);
    expect(await ids({ schemaId: 'no-such-schema' })).toEqual([]);
    await owner.identities.deleteCredential({ projectId, identityId: user.identityId, type: 'password' });
    expect((await owner.identities.get({ projectId, identityId: user.identityId })).credentials?.password).toBeUndefined();
    expect((await rejection(owner.identities.deleteCredential({ projectId, identityId: user.identityId, type: 'password' }))).code).toBe('NOT_FOUND');
    await owner.identities.delete({ projectId, identityId: user.identityId });
    expect((await rejection(owner.identities.get({ projectId, identityId: user.identityId }))).code).toBe('NOT_FOUND');
  });

  it('issues a recovery link that signs the identity in once, in the project’s own flow, and lands on its settings', async () => {
    const user = await signUpToProject(stack.url, slug, 'linked@example.com');
    const { recovery_link: link, expires_at } = await owner.identities.createRecoveryLink({ projectId, identityId: user.identityId });
    expect(link.startsWith(`${stack.url}/project-api/${slug}/self-service/recovery?`)).toBe(true);
    expect(new Date(expires_at!).getTime()).toBeGreaterThan(Date.now());

    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toMatch(new RegExp(`/project-api/${slug}/ui/settings\\?flow=`));
    const session = opened.headers.getSetCookie().find((c) => c.startsWith(`ory_session_`))!.split(';')[0]!;
    const whoami = await fetch(`${stack.url}/project-api/${slug}/sessions/whoami`, { headers: { cookie: session } });
    const body = (await whoami.json()) as { identity: { id: string }; authentication_methods: { method: string }[] };
    expect(body.identity.id).toBe(user.identityId);
    expect(body.authentication_methods[0]!.method).toBe('link_recovery');

    // Used once: the same link now lands on a fresh recovery flow that says the token is spent.
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(303);
    const retryFlow = new URL(again.headers.get('location')!).searchParams.get('flow')!;
    const retry = await fetch(`${stack.url}/project-api/${slug}/self-service/recovery/flows?id=${retryFlow}`, {
      headers: { cookie: again.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') },
    });
    expect(JSON.stringify(await retry.json())).toContain('The recovery token is invalid or has already been used. Please retry the flow.');
    expect((await rejection(outsider.identities.createRecoveryLink({ projectId, identityId: user.identityId }))).code).toMatch(/^(FORBIDDEN|NOT_FOUND)$/);
  });

  it('lists, extends and revokes sessions, one or all of an identity', async () => {
    const user = await signUpToProject(stack.url, slug, 'sessions@example.com');
    const second = await signInToProject(stack.url, slug, 'sessions@example.com');
    const mine = await owner.sessions.list({ projectId, identityId: user.identityId });
    expect(mine.sessions.map((s) => s.id).sort()).toEqual([user.sessionId, second.sessionId].sort());
    const all = await owner.sessions.list({ projectId });
    const listed = all.sessions.find((s) => s.id === user.sessionId);
    expect(listed?.identity?.id).toBe(user.identityId);
    expect(listed?.devices?.length).toBeGreaterThan(0);

    const before = await owner.sessions.get({ projectId, sessionId: user.sessionId });
    expect(before.authentication_methods?.[0]?.method).toBe('password');
    const extended = await owner.sessions.extend({ projectId, sessionId: user.sessionId });
    expect(new Date(extended.expires_at!).getTime()).toBeGreaterThanOrEqual(new Date(before.expires_at!).getTime());

    await owner.sessions.revoke({ projectId, sessionId: user.sessionId });
    expect((await owner.sessions.get({ projectId, sessionId: user.sessionId })).active).toBe(false);
    await owner.sessions.revokeAll({ projectId, identityId: user.identityId });
    expect((await owner.sessions.list({ projectId, identityId: user.identityId })).sessions.every((s) => s.active === false)).toBe(true);
  });

  it("never shows one user's project identities or sessions to another", async () => {
    const someone = (await owner.identities.list({ projectId })).identities[0]!;
    // One call at a time: each refusal is awaited as soon as it is made, so none goes unhandled meanwhile.
    for (const attempt of [
      () => outsider.identities.list({ projectId }),
      () => outsider.identities.get({ projectId, identityId: someone.id }),
      () => outsider.sessions.list({ projectId }),
      () => outsider.identities.delete({ projectId, identityId: someone.id }),
      // The outsider's own project does not reach into the owner's identities either.
      () => outsider.identities.get({ projectId: otherProjectId, identityId: someone.id }),
    ]) {
      expect((await rejection(attempt())).code).toMatch(/^(FORBIDDEN|NOT_FOUND)$/);
    }
    expect((await outsider.identities.list({ projectId: otherProjectId })).identities).toEqual([]);
  });
});
