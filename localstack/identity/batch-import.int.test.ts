import { randomUUID } from 'node:crypto';
import { Configuration, FrontendApi } from '@ory/client';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../test-support/control-plane';
import { identities } from './schema';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, uniqueEmail, type TestProject } from '../test-support/admin-api';

let stack: LocalStack;
let project: TestProject;

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Batches');
});

afterAll(async () => {
  await stack?.close();
});

const batch = (items: unknown[]) => call(project.base, 'PATCH', '/admin/identities', { key: project.key, body: { identities: items } });
const create = (email: string, extra: Record<string, unknown> = {}) => ({ create: { schema_id: 'default', traits: { email }, ...extra } });
const withPassword = (email: string, password = 'a-Long-imported-passw0rd') => create(email, { credentials: { password: { config: { password } } } });
const tenantSize = async () => (await stack.db.orm.select({ n: count() }).from(identities).where(eq(identities.nid, project.id)))[0]?.n;

describe('batch imports (PATCH /admin/identities) as Kratos runs them', () => {
  it('fails the whole request over an item that is no identity body, and writes none of the batch', async () => {
    const before = await tenantSize();
    for (const bad of [create(uniqueEmail('x'), { state: 'deleted' }), create(uniqueEmail('x'), { favourite_colour: 'red' }), { create: [] }]) {
      const answer = await batch([create(uniqueEmail('fine')), bad]);
      expect(answer.status).toBe(400);
      expect(answer.body.error.reason).toContain('identities[1].create');
    }
    expect(await tenantSize()).toBe(before);
  });

  it('refuses more than 1,000 identities, and more than 200 with plain-text passwords, in Kratos\u2019 words', async () => {
    const before = await tenantSize();
    const tooMany = await batch(Array.from({ length: 1001 }, (_, i) => create(`many-${i}@example.com`)));
    expect([tooMany.status, tooMany.body.error.reason]).toEqual([400, 'The maximum number of identities per request that can be created or deleted at once is 1000.']);
    const plain = await batch(Array.from({ length: 201 }, (_, i) => withPassword(`plain-${i}@example.com`)));
    expect([plain.status, plain.body.error.reason]).toEqual([400, 'The maximum number of identities per request that can be created with a plaintext password is 200.']);
    expect(await tenantSize()).toBe(before);
  });

  it('answers traits that break the schema and taken identifiers per item, and imports the rest with their passwords', async () => {
    const taken = uniqueEmail('taken');
    expect((await batch([create(taken)])).status).toBe(200);
    const good = uniqueEmail('good');
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const answer = await batch([
      { ...withPassword(good), patch_id: a },
      { ...create('not-an-email'), patch_id: b },
      { ...create(taken.toUpperCase()), patch_id: c },
      ...Array.from({ length: 199 }, () => withPassword(uniqueEmail('plain'))),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.identities[0]).toMatchObject({ action: 'create', patch_id: a, identity: expect.any(String) });
    expect(answer.body.identities[1]).toMatchObject({ action: 'error', patch_id: b, error: { code: 400, reason: expect.stringContaining('traits.email') } });
    expect(answer.body.identities[2]).toMatchObject({ action: 'error', patch_id: c, error: { code: 409 } });
    expect(answer.body.identities.slice(3).every((r: { action: string }) => r.action === 'create')).toBe(true);

    const frontend = new FrontendApi(new Configuration({ basePath: project.base }));
    const flow = await frontend.createNativeLoginFlow();
    const login = await frontend.updateLoginFlow({ flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: good, password: 'a-Long-imported-passw0rd' } });
    expect(login.data.session.identity?.id).toBe(answer.body.identities[0].identity);
  });
});
