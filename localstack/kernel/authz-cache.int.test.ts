import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS_AND_FOLDERS } from '../../shared/permissions/templates';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { addProjectMember, startTestStack } from '../test-support/control-plane';
import { locationOfOpl } from '../../shared/permissions/config';

// The project and API key of every project API call are cached (authz-cache.ts): a revocation, a member's
// demotion or removal, a deleted project and changed rules still take effect on the very next call.

let stack: LocalStack;
let alice: TestUser;
let bob: TestUser;

const check = (p: TestProject, key: string) =>
  call(p.base, 'GET', '/relation-tuples/check/openapi?namespace=File&object=doc&relation=view&subject_id=carol', { key });

async function setRules(p: TestProject, opl: string) {
  const answer = await alice.projects.patchProject({
    projectId: p.id,
    jsonPatch: [{ op: 'add', path: '/services/permission', value: { config: { namespaces: { location: locationOfOpl(opl) } } } }],
  });
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  stack = await startTestStack();
  [alice, bob] = await Promise.all([newUser(stack, 'Alice'), newUser(stack, 'Bob')]);
});

afterAll(async () => {
  await stack?.close();
});

describe('cached project and key lookups', () => {
  it('refuse a deleted key on the next call', async () => {
    const project = await projectWithKey(stack, alice, 'Revoked');
    await setRules(project, DOCUMENTS_AND_FOLDERS);
    expect((await check(project, project.key)).status).toBe(200);
    expect((await check(project, project.key)).status).toBe(200);
    const [listed] = (await alice.projects.listProjectApiKeys({ project: project.id })).data;
    expect((await alice.call('DELETE', `/projects/${project.id}/tokens/${listed!.id}`)).status).toBe(204);
    expect((await check(project, project.key)).status).toBe(401);
  });

  it("refuse a key once its creator is no longer an owner, or no longer a member", async () => {
    const project = await projectWithKey(stack, alice, 'Shared');
    await setRules(project, DOCUMENTS_AND_FOLDERS);
    await addProjectMember(stack, project.id, bob.id, 'owner');
    const created = await bob.projects.createProjectApiKey({ project: project.id, createProjectApiKeyBody: { name: 'bob' } });
    const bobsKey = created.data.value!;
    expect((await check(project, bobsKey)).status).toBe(200);
    expect((await alice.call('PUT', `/projects/${project.id}/members/${bob.id}/role`, { role: 'developer' })).status).toBe(200);
    expect((await check(project, bobsKey)).status).toBe(401);

    expect((await alice.call('PUT', `/projects/${project.id}/members/${bob.id}/role`, { role: 'owner' })).status).toBe(200);
    const again = (await bob.projects.createProjectApiKey({ project: project.id, createProjectApiKeyBody: { name: 'again' } })).data.value!;
    expect((await check(project, again)).status).toBe(200);
    expect((await alice.call('DELETE', `/projects/${project.id}/members/${bob.id}`)).status).toBe(204);
    expect((await check(project, again)).status).toBe(401);
    // Alice's own key was never affected.
    expect((await check(project, project.key)).status).toBe(200);
  });

  it('answer by the rules of the current revision, and not at all for a deleted project', async () => {
    const project = await projectWithKey(stack, alice, 'Changing');
    await setRules(project, DOCUMENTS_AND_FOLDERS);
    expect((await check(project, project.key)).body).toEqual({ allowed: false });
    // Rules without the File namespace: Keto answers not allowed for a namespace it does not know.
    await setRules(project, 'class User implements Namespace {}\nclass File implements Namespace {\n  related: { viewers: User[] }\n}\n');
    await call(project.base, 'PUT', '/admin/relation-tuples', { key: project.key, body: { namespace: 'File', object: 'doc', relation: 'viewers', subject_id: 'carol' } });
    expect((await call(project.base, 'GET', '/relation-tuples/check/openapi?namespace=File&object=doc&relation=viewers&subject_id=carol', { key: project.key })).body).toEqual({ allowed: true });
    // `view` is no relation of the new rules.
    expect((await check(project, project.key)).status).toBe(400);

    expect((await alice.call('DELETE', `/projects/${project.id}`)).status).toBe(204);
    expect((await check(project, project.key)).status).toBe(404);
  });
});
