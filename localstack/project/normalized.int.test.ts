import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { expectOryError, newUser, startTestStack, type TestUser } from '../test-support/control-plane';

let stack: LocalStack;
let alice: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  alice = await newUser(stack, 'Alice');
});
afterAll(async () => {
  await stack?.close();
});

describe('normalized projects', () => {
  it('creates a normalized project with its revision fields and reads it back', async () => {
    const created = await alice.call('POST', '/normalized/projects', {
      name: 'Normal',
      environment: 'stage',
      kratos_selfservice_methods_password_enabled: true,
      kratos_identity_schemas: [{ import_id: 'default', import_url: 'base64://e30=' }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      environment: 'stage',
      state: 'running',
      home_region: 'eu-central',
      workspace_id: null,
      current_revision: {
        name: 'Normal',
        project_id: created.body.id,
        kratos_selfservice_methods_password_enabled: true,
        kratos_identity_schemas: [{ import_id: 'default', import_url: 'base64://e30=' }],
      },
    });
    expect(created.body.hosts).toEqual([`${created.body.slug}.projects.oryapis.com`]);
    expect(created.body.current_revision).not.toHaveProperty('environment');

    const got = await alice.call('GET', `/normalized/projects/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const full = await alice.projects.getProject({ projectId: created.body.id });
    expect(full.data.revision_id).toBe(created.body.current_revision.id);
  });

  it('renames with PUT and keeps every field it was sent, unknown ones included', async () => {
    const created = await alice.call('POST', '/normalized/projects', { name: 'Before', environment: 'dev' });
    const projectId = created.body.id as string;
    const before = (await alice.call('GET', `/normalized/projects/${projectId}`)).body;
    const revision = {
      ...before.current_revision,
      name: 'After',
      hydra_oauth2_ttl_access_token: '2h',
      some_future_field: { nested: [1, 2, 3] },
    };
    const put = await alice.call('PUT', `/normalized/projects/${projectId}`, revision);
    expect(put.status).toBe(200);
    expect(put.body.current_revision).toMatchObject({
      name: 'After',
      hydra_oauth2_ttl_access_token: '2h',
      some_future_field: { nested: [1, 2, 3] },
    });
    expect(put.body.current_revision.id).not.toBe(before.current_revision.id);

    const renamedAgain = { ...put.body.current_revision, name: 'After 2' };
    const second = await alice.call('PUT', `/normalized/projects/${projectId}`, renamedAgain);
    expect(second.body.current_revision).toMatchObject({ name: 'After 2', some_future_field: { nested: [1, 2, 3] } });
    const listed = (await alice.projects.listProjects()).data.find((p) => p.id === projectId);
    expect(listed?.name).toBe('After 2');
  });

  it('patches revision fields and answers 409 on a stale revision', async () => {
    const created = await alice.call('POST', '/normalized/projects', {
      name: 'Patchable',
      environment: 'dev',
      custom_flag: 'keep',
    });
    const projectId = created.body.id as string;
    const revisionId = created.body.current_revision.id as string;
    const patched = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'replace', path: '/name', value: 'Patched' },
      { op: 'add', path: '/kratos_selfservice_methods_code_enabled', value: true },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body.current_revision).toMatchObject({
      name: 'Patched',
      custom_flag: 'keep',
      kratos_selfservice_methods_code_enabled: true,
    });

    const stale = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'replace', path: '/name', value: 'Lost update' },
    ]);
    expectOryError(stale, 409, /revision/);
    const current = await alice.call('GET', `/normalized/projects/${projectId}`);
    expect(current.body.current_revision.name).toBe('Patched');
  });

  it('answers 400 with a reason for bad bodies and read-only paths', async () => {
    expectOryError(await alice.call('POST', '/normalized/projects', { name: 'No env' }), 400, /environment/);
    expectOryError(await alice.call('POST', '/normalized/projects', { environment: 'dev' }), 400, /name/);
    const created = await alice.call('POST', '/normalized/projects', { name: 'Strict', environment: 'dev' });
    const projectId = created.body.id as string;
    const revisionId = created.body.current_revision.id as string;
    expectOryError(await alice.call('PUT', `/normalized/projects/${projectId}`, { name: '' }), 400, /name/);
    expectOryError(await alice.call('PUT', `/normalized/projects/${projectId}`, [1, 2]), 400);
    const readOnly = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'replace', path: '/id', value: 'x' },
    ]);
    expectOryError(readOnly, 400, /\/id/);
    const badOp = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'rename', path: '/name', value: 'x' },
    ]);
    expectOryError(badOp, 400, /op/);
    const noValue = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'replace', path: '/name' },
    ]);
    expectOryError(noValue, 400, /value/);
    const removeName = await alice.call('PATCH', `/normalized/projects/${projectId}/revision/${revisionId}`, [
      { op: 'remove', path: '/name' },
    ]);
    expectOryError(removeName, 400, /name/);
  });
});
