import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteProjectApiKey, listProjectApiKeys } from '../api-key/store';
import { addProjectMember, startTestStack } from '../test-support/control-plane';
import { CONSOLE_NID, projectSessionCookie } from '../kernel/tenant';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, seedSession, uniqueEmail, type TestProject, type TestUser } from '../test-support/admin-api';

let stack: LocalStack;
let alice: TestUser;
let bob: TestUser;
let dev: TestUser;
let a: TestProject;
let b: TestProject;
let aliceIdentity: string;

const identityBody = (email: string) => ({ schema_id: 'default', traits: { email } });

beforeAll(async () => {
  stack = await startTestStack();
  [alice, bob, dev] = await Promise.all([newUser(stack, 'Alice'), newUser(stack, 'Bob'), newUser(stack, 'Dev')]);
  a = await projectWithKey(stack, alice, 'Alpha');
  b = await projectWithKey(stack, bob, 'Beta');
  await addProjectMember(stack, a.id, dev.id, 'developer');
  aliceIdentity = (await call(a.base, 'POST', '/admin/identities', { key: a.key, body: identityBody(uniqueEmail('alpha')) })).body.id;
  await call(b.base, 'POST', '/admin/identities', { key: b.key, body: identityBody(uniqueEmail('beta')) });
});

afterAll(async () => {
  await stack?.close();
});

/** Every admin route of the data plane, with a valid body where it takes one. */
const routes = (id: string): [string, string, unknown?][] => [
  ['GET', '/admin/identities'],
  ['POST', '/admin/identities', identityBody(uniqueEmail('route'))],
  ['GET', `/admin/identities/${id}`],
  ['PUT', `/admin/identities/${id}`, { ...identityBody(uniqueEmail('put')), state: 'active' }],
  ['PATCH', `/admin/identities/${id}`, [{ op: 'add', path: '/traits/name', value: 'P' }]],
  ['GET', `/admin/identities/${id}/sessions`],
  ['DELETE', `/admin/identities/${id}/sessions`],
  ['GET', '/admin/sessions'],
  ['GET', `/admin/sessions/${id}`],
  ['DELETE', `/admin/sessions/${id}`],
  ['PATCH', `/admin/sessions/${id}/extend`],
  ['GET', '/admin/courier/messages'],
  ['GET', `/admin/courier/messages/${id}`],
  ['DELETE', `/admin/identities/${id}`],
];

describe('who may call a project\u2019s admin API', () => {
  it('answers 401 on every route without a credential, and with a key of another project', async () => {
    for (const [method, path, body] of routes(aliceIdentity)) {
      const none = await call(a.base, method, path, { body });
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.body.error).toMatchObject({ code: 401, status: 'Unauthorized' });
      const foreign = await call(a.base, method, path, { key: b.key, body });
      expect(foreign.status, `${method} ${path} with B's key`).toBe(401);
    }
    expect((await call(a.base, 'GET', `/admin/identities/${aliceIdentity}`, { key: a.key })).status).toBe(200);
  });

  it('never shows B\u2019s key or B\u2019s session A\u2019s identities', async () => {
    const asBob = await call(a.base, 'GET', '/admin/identities', { cookie: bob.cookie });
    expect(asBob.status).toBe(403);
    expect(asBob.body.error).toMatchObject({ code: 403, reason: 'You are not a member of this project.' });
    const bobsOwn = await call(b.base, 'GET', '/admin/identities', { key: b.key });
    expect(bobsOwn.body.map((i: { id: string }) => i.id)).not.toContain(aliceIdentity);
    expect((await call(b.base, 'GET', `/admin/identities/${aliceIdentity}`, { key: b.key })).status).toBe(404);
    expect((await call(b.base, 'DELETE', `/admin/identities/${aliceIdentity}`, { key: b.key })).status).toBe(404);
    expect((await call(a.base, 'GET', `/admin/identities/${aliceIdentity}`, { key: a.key })).status).toBe(200);
  });

  it('lets members read and write with their console session: the owner and a developer', async () => {
    for (const user of [alice, dev]) {
      const list = await call(a.base, 'GET', '/admin/identities', { cookie: user.cookie });
      expect(list.status).toBe(200);
      expect(list.body.map((i: { id: string }) => i.id)).toContain(aliceIdentity);
      const created = await call(a.base, 'POST', '/admin/identities', { cookie: user.cookie, body: identityBody(uniqueEmail('member')) });
      expect(created.status).toBe(201);
    }
  });

  it('refuses a member\u2019s write that a browser sends from another origin', async () => {
    const forged = await call(a.base, 'POST', '/admin/identities', {
      cookie: alice.cookie,
      body: identityBody(uniqueEmail('csrf')),
      headers: { origin: 'http://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error.id).toBe('security_csrf_violation');
    const read = await call(a.base, 'GET', '/admin/identities', { cookie: alice.cookie, headers: { origin: 'http://evil.example' } });
    expect(read.status).toBe(200);
  });

  it('does not take a session of the project\u2019s own users, a session token header or a bearer session token', async () => {
    const endUser = await seedSession(stack, a.id, aliceIdentity);
    expect((await call(a.base, 'GET', '/admin/identities', { cookie: `ory_kratos_session=${endUser.token}` })).status).toBe(401);
    expect((await call(a.base, 'GET', '/admin/identities', { cookie: `${projectSessionCookie(a.slug)}=${endUser.token}` })).status).toBe(401);
    const consoleToken = alice.cookie.split('=')[1]!;
    expect((await call(a.base, 'GET', '/admin/identities', { headers: { 'x-session-token': consoleToken } })).status).toBe(401);
    expect((await call(a.base, 'GET', '/admin/identities', { key: consoleToken })).status).toBe(401);
    // A bad Authorization header is not rescued by a good cookie.
    expect((await call(a.base, 'GET', '/admin/identities', { key: 'ory_pat_nope', cookie: alice.cookie })).status).toBe(401);
    expect(CONSOLE_NID).not.toBe(a.id);
  });

  it('stops taking a key once it is deleted', async () => {
    const temp = await projectWithKey(stack, alice, 'Temporary');
    expect((await call(temp.base, 'GET', '/admin/identities', { key: temp.key })).status).toBe(200);
    const [row] = await listProjectApiKeys(stack.db, temp.id);
    await deleteProjectApiKey(stack.db, temp.id, row!.id);
    expect((await call(temp.base, 'GET', '/admin/identities', { key: temp.key })).status).toBe(401);
  });

  it('answers 404 for a slug no project has', async () => {
    const missing = await call(stack.url, 'GET', '/project-api/no-such-project/admin/identities', { key: a.key });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe(404);
  });
});
