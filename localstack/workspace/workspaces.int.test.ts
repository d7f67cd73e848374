import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import {
  addWorkspaceMember,
  createProject,
  expectOryError,
  failure,
  newUser,
  startTestStack,
  type TestUser,
} from '../test-support/control-plane';

let stack: LocalStack;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  [alice, bob] = await Promise.all([newUser(stack, 'Alice'), newUser(stack, 'Bob')]);
});
afterAll(async () => {
  await stack?.close();
});

describe('workspaces', () => {
  it('creates, reads and renames a workspace', async () => {
    const created = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Acme' } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'Acme' });
    expect(created.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(created.data.created_at).toISOString()).toBe(created.data.created_at);

    const got = await alice.workspaces.getWorkspace({ workspace: created.data.id });
    expect(got.data).toEqual(created.data);

    const renamed = await alice.workspaces.updateWorkspace({
      workspace: created.data.id,
      updateWorkspaceBody: { name: 'Acme Inc', access_policy: 'CHECK_ACCESS_PERMISSION' },
    });
    expect(renamed.data).toMatchObject({
      id: created.data.id,
      name: 'Acme Inc',
      access_policy: 'CHECK_ACCESS_PERMISSION',
    });
    expect(renamed.data.created_at).toBe(created.data.created_at);

    const members = await alice.call('GET', `/workspaces/${created.data.id}/members`);
    expect(members.body).toEqual([expect.objectContaining({ id: alice.id, email: alice.email, role: 'owner' })]);
  });

  it('answers 400 for bad bodies and bad page parameters', async () => {
    expectOryError(await failure(alice.workspaces.createWorkspace({ createWorkspaceBody: { name: '  ' } })), 400, /name/);
    expectOryError(await alice.call('POST', '/workspaces', {}), 400, /name/);
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Valid' } });
    const badPolicy = await alice.call('PUT', `/workspaces/${ws.id}`, { name: 'x', access_policy: 'ALL' });
    expectOryError(badPolicy, 400, /access_policy/);
    expectOryError(await alice.call('GET', '/workspaces?page_size=0'), 400, /page_size/);
    expectOryError(await alice.call('GET', '/workspaces?page_size=501'), 400, /page_size/);
    expectOryError(await alice.call('GET', '/workspaces?page_token=garbage'), 400, /page_token/);
    expectOryError(await alice.call('GET', '/workspaces/not-a-uuid'), 400, /workspace/);
    expectOryError(await alice.call('GET', '/workspaces/00000000-0000-4000-8000-000000000000'), 404);
  });

  it('pages through the caller’s workspaces in a stable order', async () => {
    const carol = await newUser(stack, 'Carol');
    const names = ['W1', 'W2', 'W3', 'W4', 'W5'];
    for (const name of names) await carol.workspaces.createWorkspace({ createWorkspaceBody: { name } });
    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    for (;;) {
      const { data } = await carol.workspaces.listWorkspaces({ pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      pages += 1;
      seen.push(...data.workspaces.map((w) => w.name));
      if (!data.has_next_page) {
        expect(data.next_page_token).toBe('');
        break;
      }
      pageToken = data.next_page_token;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(names);
    const all = await carol.workspaces.listWorkspaces({});
    expect(all.data.workspaces.map((w) => w.name)).toEqual(names);
    expect(all.data.has_next_page).toBe(false);
  });

  it('lists a workspace’s projects and moves a project into it', async () => {
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Projects' } });
    const { data: inside } = await alice.projects.createProject({
      createProjectBody: { name: 'Inside', environment: 'dev', workspace_id: ws.id },
    });
    const outside = await createProject(alice, 'Outside');

    const before = await alice.workspaces.listWorkspaceProjects({ workspace: ws.id });
    expect(before.data.projects.map((p) => p.id)).toEqual([inside.id]);
    expect(before.data).toMatchObject({ has_next_page: false, next_page: '' });
    expect(before.data.projects[0]).toMatchObject({ name: 'Inside', workspace_id: ws.id });

    const link = { workspace: ws.id, project: outside.id, original_workspace_id: null };
    const mismatch = await alice.call('POST', `/workspaces/${ws.id}/add/${outside.id}`, { ...link, project: inside.id });
    expectOryError(mismatch, 400, /project/);
    const wrongOrigin = { ...link, original_workspace_id: ws.id };
    expectOryError(await alice.call('POST', `/workspaces/${ws.id}/add/${outside.id}`, wrongOrigin), 409);

    const added = await alice.call('POST', `/workspaces/${ws.id}/add/${outside.id}`, link);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: outside.id, name: 'Outside', workspace_id: ws.id });
    const after = await alice.workspaces.listWorkspaceProjects({ workspace: ws.id });
    expect(after.data.projects.map((p) => p.id).sort()).toEqual([inside.id, outside.id].sort());
    expect((await alice.projects.getProject({ projectId: outside.id })).data.workspace_id).toBe(ws.id);
  });

  it('moves a project with the published addProjectToWorkspaceBody and says which body it takes', async () => {
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Published' } });
    const lone = await createProject(alice, 'Lone', { environment: 'dev' });
    const published = { environment: 'stage', project_subscription: 'migrate' };
    const moved = await alice.call('POST', `/workspaces/${ws.id}/add/${lone.id}`, published);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: lone.id, workspace_id: ws.id, environment: 'stage' });

    const other = await createProject(alice, 'Other');
    const neither = await alice.call('POST', `/workspaces/${ws.id}/add/${other.id}`, { environment: 'dev' });
    expectOryError(neither, 400, /environment and project_subscription, or workspace and project/);
    const badChoice = { environment: 'dev', project_subscription: 'keep' };
    expectOryError(await alice.call('POST', `/workspaces/${ws.id}/add/${other.id}`, badChoice), 400, /project_subscription/);
    expectOryError(await alice.call('POST', `/workspaces/${ws.id}/add/nope`, published), 400, /"project_id" must be a UUID/);
    // Bob owns neither side: the published body does not open a way around the owner checks.
    expectOryError(await bob.call('POST', `/workspaces/${ws.id}/add/${other.id}`, published), 403);
    expect((await alice.projects.getProject({ projectId: other.id })).data.workspace_id).toBeNull();
  });

  it('lets only owners of both sides move a project', async () => {
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Target' } });
    await addWorkspaceMember(stack, ws.id, bob.id, 'developer');
    const bobs = await createProject(bob, 'Bob’s');
    const link = { workspace: ws.id, project: bobs.id };
    expectOryError(await bob.call('POST', `/workspaces/${ws.id}/add/${bobs.id}`, link), 403, /owner/);
    const alices = await createProject(alice, 'Alice’s');
    const alicesLink = { workspace: ws.id, project: alices.id };
    expectOryError(await bob.call('POST', `/workspaces/${ws.id}/add/${alices.id}`, alicesLink), 403);
  });

  it('removes workspace members but never the last owner', async () => {
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Members' } });
    await addWorkspaceMember(stack, ws.id, bob.id, 'developer');
    const listed = await bob.call('GET', `/workspaces/${ws.id}/members`);
    expect(listed.body.map((m: { id: string }) => m.id).sort()).toEqual([alice.id, bob.id].sort());
    expectOryError(await bob.call('DELETE', `/workspaces/${ws.id}/members/${alice.id}`), 403);
    expectOryError(await alice.call('DELETE', `/workspaces/${ws.id}/members/${alice.id}`), 409, /last owner/);
    expect((await alice.call('DELETE', `/workspaces/${ws.id}/members/${bob.id}`)).status).toBe(204);
    expectOryError(await alice.call('DELETE', `/workspaces/${ws.id}/members/${bob.id}`), 404);
    expectOryError(await failure(bob.workspaces.getWorkspace({ workspace: ws.id })), 403, /not a member/);
  });
});
