import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS_AND_FOLDERS } from '../../shared/permissions/templates';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { loginUser } from '../../server/test-support/users';
import { addProjectMember, addWorkspaceMember, createProject, newUser as newConsoleUser, startTestStack } from '../test-support/control-plane';
import { locationOfOpl } from '../../shared/permissions/config';

// The project and API key of every project API call, the console session of every call and the caller's
// memberships are cached (authz-cache.ts): a revocation, a logout, a member's promotion, demotion or removal, a
// deleted project and changed rules still take effect on the very next call.

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

describe('cached console sessions and memberships', () => {
  /** The console's own read of a project's identities, with a console cookie (no key). */
  const adminRead = async (slug: string, cookie: string) =>
    (await fetch(`${stack.url}/project-api/${slug}/admin/identities`, { headers: { cookie, accept: 'application/json' } })).status;

  it('refuse a session on the very next call once it has logged out', async () => {
    const dave = await newConsoleUser(stack, 'Dave');
    expect((await dave.call('GET', '/projects')).status).toBe(200);
    expect((await dave.call('GET', '/projects')).status).toBe(200);
    const flow = await dave.call('GET', '/self-service/logout/browser');
    expect(flow.status).toBe(200);
    const logout = await fetch(`${stack.url}/self-service/logout?token=${flow.body.logout_token}`, { headers: { cookie: dave.cookie, accept: 'application/json' } });
    expect(logout.status).toBe(204);
    expect((await dave.call('GET', '/projects')).status).toBe(401);
  });

  it("refuse a session revoked from another of the identity's sessions, on the control plane and on a project's API", async () => {
    const erin = await newConsoleUser(stack, 'Erin');
    const project = await createProject(erin, 'Two sessions');
    const other = (await loginUser(stack.url, erin.email, 'a-Long-and-unusual-passw0rd')).cookie;
    expect((await fetch(`${stack.url}/projects/${project.id}`, { headers: { cookie: other } })).status).toBe(200);
    expect(await adminRead(project.slug, other)).toBe(200);
    expect(await adminRead(project.slug, other)).toBe(200);

    const revoked = await erin.call('DELETE', '/sessions');
    expect(revoked.status).toBe(200);
    expect(revoked.body.count).toBe(1);
    expect((await fetch(`${stack.url}/projects/${project.id}`, { headers: { cookie: other } })).status).toBe(401);
    expect(await adminRead(project.slug, other)).toBe(401);
    // The session that revoked the other one still works.
    expect(await adminRead(project.slug, erin.cookie)).toBe(200);
  });

  it("answer with a member's new role, and refuse a removed member, on the very next call", async () => {
    const project = await createProject(alice, 'Roles');
    const frank = await newConsoleUser(stack, 'Frank');
    await addProjectMember(stack, project.id, frank.id, 'developer');
    expect((await frank.call('GET', `/projects/${project.id}`)).status).toBe(200);
    expect((await frank.call('POST', `/projects/${project.id}/tokens`, { name: 'too early' })).status).toBe(403);

    expect((await alice.call('PUT', `/projects/${project.id}/members/${frank.id}/role`, { role: 'owner' })).status).toBe(200);
    expect((await frank.call('POST', `/projects/${project.id}/tokens`, { name: 'now' })).status).toBe(201);

    expect((await alice.call('DELETE', `/projects/${project.id}/members/${frank.id}`)).status).toBe(204);
    expect((await frank.call('GET', `/projects/${project.id}`)).status).toBe(403);
    expect(await adminRead(project.slug, frank.cookie)).toBe(403);
  });

  it("refuse a workspace member removed from it, on the workspace and on its projects, on the very next call", async () => {
    const workspace = (await alice.call('POST', '/workspaces', { name: 'Shared' })).body as { id: string };
    const project = await createProject(alice, 'In the workspace', { workspace_id: workspace.id });
    const grace = await newConsoleUser(stack, 'Grace');
    await addWorkspaceMember(stack, workspace.id, grace.id, 'developer');
    expect((await grace.call('GET', `/workspaces/${workspace.id}`)).status).toBe(200);
    expect(await adminRead(project.slug, grace.cookie)).toBe(200);

    expect((await alice.call('DELETE', `/workspaces/${workspace.id}/members/${grace.id}`)).status).toBe(204);
    expect((await grace.call('GET', `/workspaces/${workspace.id}`)).status).toBe(403);
    expect(await adminRead(project.slug, grace.cookie)).toBe(403);
  });
});
