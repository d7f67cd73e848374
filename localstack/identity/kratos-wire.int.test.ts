import type { Identity } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { call, links, newUser, projectWithKey, seedSession, uniqueEmail, type TestProject } from '../test-support/admin-api';

let stack: LocalStack;
let project: TestProject;
const created: Identity[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Wire');
  for (let i = 0; i < 5; i += 1) {
    const answer = await admin('POST', '/admin/identities', {
      schema_id: 'default',
      traits: { email: uniqueEmail(`wire${i}`) },
      ...(i === 0 ? { credentials: { password: { config: { password: 'a-Long-and-unusual-passw0rd' } } } } : {}),
    });
    created.push(answer.body);
  }
});

afterAll(async () => {
  await stack?.close();
});

const admin = (method: string, path: string, body?: unknown) => call(project.base, method, path, { key: project.key, body });
const ids = (answer: { body: Identity[] }) => answer.body.map((i) => i.id);

describe('the identity admin API on the wire, as Kratos answers', () => {
  it('names a created identity\u2019s admin URL in Location', async () => {
    const answer = await admin('POST', '/admin/identities', { schema_id: 'default', traits: { email: uniqueEmail('located') } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe(`${project.base}/admin/identities/${answer.body.id}`);
  });

  it('reads page_size 0 as the default, clamps it to 500, and takes per_page for it', async () => {
    const zero = await admin('GET', '/admin/identities?page_size=0');
    expect(zero.status).toBe(200);
    expect(links(zero).first).toContain('page_size=250');
    const huge = await admin('GET', '/admin/identities?page_size=100000');
    expect([huge.status, links(huge).first]).toEqual([200, expect.stringContaining('page_size=500')]);
    const perPage = await admin('GET', '/admin/identities?per_page=2');
    expect(perPage.body).toHaveLength(2);
    expect(links(perPage).next).toContain('page_size=2');
  });

  it('pages by page and per_page with X-Total-Count, and refuses legacy pages beyond 1,000 rows', async () => {
    const all = ids(await admin('GET', '/admin/identities?page_size=500'));
    const first = await admin('GET', '/admin/identities?page=0&per_page=2');
    expect(first.headers.get('x-total-count')).toBe(String(all.length));
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect(links(first).next).toContain('page=1');
    const second = await admin('GET', '/admin/identities?page=1&per_page=2');
    expect(ids(second)).toEqual(all.slice(2, 4));
    const deep = await admin('GET', '/admin/identities?page=3&per_page=500');
    expect([deep.status, deep.body.error.reason]).toEqual([
      400,
      'Legacy pagination is not supported for enumerating over 1000 items. Please switch to using page_token and page_size.',
    ]);
  });

  it('refuses combined filters and bad ids and include_credential values in Kratos\u2019 words', async () => {
    const email = created[0]!.traits.email as string;
    const combined = await admin('GET', `/admin/identities?ids=${created[0]!.id}&credentials_identifier=${encodeURIComponent(email)}`);
    expect([combined.status, combined.body.error.reason]).toEqual([400, 'You cannot combine multiple filters in this API']);
    const badId = await admin('GET', '/admin/identities?ids=nope');
    expect(badId.body.error.reason).toBe('Invalid UUID value `nope` for parameter `ids`.');
    const badType = await admin('GET', '/admin/identities?include_credential=secrets');
    expect(badType.body.error.reason).toBe('Invalid value `secrets` for parameter `include_credential`.');
  });

  it('publishes the password credential\u2019s config only when include_credential names it', async () => {
    const id = created[0]!.id;
    const plain = await admin('GET', `/admin/identities/${id}`);
    expect(plain.body.credentials.password).not.toHaveProperty('config');
    const included = await admin('GET', `/admin/identities/${id}?include_credential=password`);
    expect(included.body.credentials.password.config.hashed_password).toMatch(/^\$argon2id\$/);
  });

  it('answers 404 "Unable to locate the resource" for an id that is no UUID', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { schema_id: 'default', state: 'active', traits: { email: uniqueEmail('x') } }],
      ['PATCH', [{ op: 'replace', path: '/state', value: 'inactive' }]],
      ['DELETE', undefined],
    ] as const) {
      const answer = await admin(method, '/admin/identities/not-a-uuid', body);
      expect({ method, status: answer.status, error: answer.body.error }).toEqual({
        method,
        status: 404,
        error: { code: 404, status: 'Not Found', message: 'Unable to locate the resource' },
      });
    }
  });

  it('applies Kratos\u2019 patch rules and texts', async () => {
    const id = created[1]!.id;
    const move = await admin('PATCH', `/admin/identities/${id}`, [{ op: 'move', from: '/traits/email', path: '/traits/other' }]);
    expect(move.body.error).toMatchObject({ code: 400, reason: 'failed to apply JSON patch', message: 'unsupported operation: move' });
    const denied = await admin('PATCH', `/admin/identities/${id}`, [{ op: 'replace', path: '/id', value: created[2]!.id }]);
    expect(denied.body.error).toMatchObject({ reason: 'failed to apply JSON patch', message: 'patch includes denied path: /id' });
    const state = await admin('PATCH', `/admin/identities/${id}`, [{ op: 'replace', path: '/state', value: 'gone' }]);
    expect(state.body.error).toMatchObject({
      code: 400,
      reason: "The supplied state ('gone') was not valid. Valid states are ('active', 'inactive').",
      message: 'identity state is not valid',
    });
    expect((await admin('GET', `/admin/identities/${id}`)).body).toEqual(created[1]);
  });

  it('pages an identity\u2019s sessions by offset with X-Total-Count, and 404s a delete of none', async () => {
    const id = created[3]!.id;
    const start = Date.now();
    for (let i = 0; i < 3; i += 1) await seedSession(stack, project.id, id, new Date(start - i * 1000));
    const first = await admin('GET', `/admin/identities/${id}/sessions?page_size=2`);
    expect(first.headers.get('x-total-count')).toBe('3');
    expect(first.body).toHaveLength(2);
    const next = links(first).next!;
    expect(next).toContain('page_token=');
    const second = await call(stack.url, 'GET', next, { key: project.key });
    expect(second.body).toHaveLength(1);
    expect(new Set([...first.body, ...second.body].map((s: { id: string }) => s.id)).size).toBe(3);
    const legacy = await admin('GET', `/admin/identities/${id}/sessions?page=1&per_page=2`);
    expect(legacy.body.map((s: { id: string }) => s.id)).toEqual(second.body.map((s: { id: string }) => s.id));

    expect((await admin('DELETE', `/admin/identities/${id}/sessions`)).status).toBe(204);
    const none = await admin('DELETE', `/admin/identities/${id}/sessions`);
    expect([none.status, none.body.error.message]).toEqual([404, 'Unable to locate the resource']);
  });
});
