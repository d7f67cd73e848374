import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { expectOryError, newUser, startTestStack, type TestUser } from '../test-support/control-plane';
import { MAX_PATCH_OPERATIONS, MAX_PATCHED_DOCUMENT_BYTES } from '../kernel/json-patch';

let stack: LocalStack;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  alice = await newUser(stack, 'Alice');
  bob = await newUser(stack, 'Bob');
});
afterAll(async () => {
  await stack?.close();
});

/** ~1.5 KB of patch whose copies double the document at every step: 30 of them would need gigabytes. */
const doublingPatch = () => [
  { op: 'add', path: '/custom_list', value: ['x'.repeat(32)] },
  ...Array.from({ length: 30 }, () => ({ op: 'copy', from: '/custom_list', path: '/custom_list/-' })),
];

describe('JSON patch limits on PATCH /normalized/projects/{id}/revision/{rev}', () => {
  it('refuses a chain of doubling copies with 400 while other requests are served', async () => {
    const created = await alice.call('POST', '/normalized/projects', { name: 'Doubling', environment: 'dev' });
    expect(created.status).toBe(201);
    const projectId = created.body.id as string;
    const revisionId = created.body.current_revision.id as string;
    expect(JSON.stringify(doublingPatch()).length).toBeLessThan(2048);

    const [patched, other] = await Promise.all([
      alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, doublingPatch()),
      bob.call('POST', '/normalized/projects', { name: 'Meanwhile', environment: 'dev' }),
    ]);
    expectOryError(patched, 400, new RegExp(`exceed ${MAX_PATCHED_DOCUMENT_BYTES} bytes`));
    expect(other.status).toBe(201);

    // Nothing half-written: the revision is unchanged and still current, so a normal patch on it works.
    const after = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'replace', path: '/name', value: 'Still patchable' },
    ]);
    expect(after.status).toBe(200);
    expect(after.body.current_revision).not.toHaveProperty('custom_list');
  });

  it(`refuses more than ${MAX_PATCH_OPERATIONS} operations, saying how to fix it`, async () => {
    const created = await alice.call('POST', '/normalized/projects', { name: 'Long patch', environment: 'dev' });
    const projectId = created.body.id as string;
    const revisionId = created.body.current_revision.id as string;
    const ops = Array.from({ length: MAX_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/name', value: 'Long patch' }));
    expectOryError(await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, ops), 400, /at most 100 operations; split it/);
    const ok = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, ops.slice(1));
    expect(ok.status).toBe(200);
  });

  it('answers 400, never 500, to a copy from an inherited property', async () => {
    const created = await alice.call('POST', '/normalized/projects', { name: 'Inherited', environment: 'dev' });
    const projectId = created.body.id as string;
    const revisionId = created.body.current_revision.id as string;
    const answer = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'copy', from: '/constructor', path: '/x' },
    ]);
    expectOryError(answer, 400, /\/constructor does not exist/);
  });
});
