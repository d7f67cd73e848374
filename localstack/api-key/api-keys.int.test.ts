import { Configuration, WorkspaceApi } from '@ory/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import {
  addProjectMember,
  createProject,
  expectOryError,
  keyCall,
  newUser,
  rawCall,
  startTestStack,
  type TestUser,
} from '../test-support/control-plane';
import { projectApiKeys, workspaceApiKeys } from '../project/schema';
import { authenticateApiKey } from './verify';

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

const inAYear = () => new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();

describe('project API keys', () => {
  it('answers the secret once on creation, stores only its hash, and lists keys without it', async () => {
    const project = await createProject(alice, 'Keyed');
    const expiresAt = inAYear();
    const created = await alice.projects.createProjectApiKey({
      project: project.id,
      createProjectApiKeyBody: { name: '  CI deploys  ', expires_at: expiresAt },
    });
    expect(created.status).toBe(201);
    const key = created.data;
    expect(key).toMatchObject({ name: 'CI deploys', owner_id: alice.id, project_id: project.id, expires_at: expiresAt });
    expect(key.value).toMatch(/^ory_pat_[A-Za-z0-9_-]{43}$/);
    expect(key.last_characters).toBe(key.value!.slice(-4));
    expect(new Date(key.created_at!).toISOString()).toBe(key.created_at);

    // `{project}` may be the slug as well as the id.
    const listed = await alice.projects.listProjectApiKeys({ project: project.slug });
    expect(listed.data).toEqual([{ ...key, value: undefined }].map(({ value: _omit, ...rest }) => rest));

    const stored = await stack.db.orm.select().from(projectApiKeys).where(eq(projectApiKeys.id, key.id));
    expect(JSON.stringify(stored)).not.toContain(key.value!.slice('ory_pat_'.length));

    expect(await authenticateApiKey(stack.db, `Bearer ${key.value}`, stack.clock.now())).toEqual({
      kind: 'project',
      projectId: project.id,
      keyId: key.id,
      ownerId: alice.id,
    });
    expect(await authenticateApiKey(stack.db, `Bearer ${key.value!.slice(0, -1)}x`, stack.clock.now())).toBeNull();
    expect(await authenticateApiKey(stack.db, undefined, stack.clock.now())).toBeNull();
  });

  it('deletes a key: the key stops authenticating and a second delete is a 404', async () => {
    const project = await createProject(alice, 'Rotating');
    const { data: key } = await alice.projects.createProjectApiKey({
      project: project.id,
      createProjectApiKeyBody: { name: 'old' },
    });
    expect(key.expires_at).toBeUndefined();
    const deleted = await alice.call('DELETE', `/projects/${project.id}/tokens/${key.id}`);
    expect(deleted.status).toBe(204);
    expect((await alice.projects.listProjectApiKeys({ project: project.id })).data).toEqual([]);
    expect(await authenticateApiKey(stack.db, `Bearer ${key.value}`, stack.clock.now())).toBeNull();
    expectOryError(await alice.call('DELETE', `/projects/${project.id}/tokens/${key.id}`), 404, /no API key/);
  });

  it("keeps a project's keys from strangers, and lets developers read but not manage them", async () => {
    const project = await createProject(alice, 'Guarded');
    const { data: key } = await alice.projects.createProjectApiKey({
      project: project.id,
      createProjectApiKeyBody: { name: 'mine' },
    });
    expectOryError(await bob.call('GET', `/projects/${project.id}/tokens`), 403);
    expectOryError(await bob.call('POST', `/projects/${project.id}/tokens`, { name: 'theirs' }), 403);
    expectOryError(await bob.call('DELETE', `/projects/${project.id}/tokens/${key.id}`), 403);

    await addProjectMember(stack, project.id, bob.id, 'developer');
    const seen = await bob.call('GET', `/projects/${project.id}/tokens`);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual([expect.objectContaining({ id: key.id, name: 'mine' })]);
    expect(seen.body[0].value).toBeUndefined();
    expectOryError(await bob.call('POST', `/projects/${project.id}/tokens`, { name: 'theirs' }), 403, /owner/);
    expectOryError(await bob.call('DELETE', `/projects/${project.id}/tokens/${key.id}`), 403, /owner/);
    expect(await authenticateApiKey(stack.db, `Bearer ${key.value}`, stack.clock.now())).not.toBeNull();
  });

  it('answers 400 naming the field for a bad name, expiry or token id, and 404 for an unknown project', async () => {
    const project = await createProject(alice, 'Strict');
    const base = `/projects/${project.id}/tokens`;
    expectOryError(await alice.call('POST', base, {}), 400, /name: is required/);
    expectOryError(await alice.call('POST', base, { name: '   ' }), 400, /name: must not be empty/);
    expectOryError(await alice.call('POST', base, { name: 'x'.repeat(256) }), 400, /name: must be at most 255/);
    expectOryError(await alice.call('POST', base, { name: 'k', expires_at: 'tomorrow' }), 400, /expires_at: must be an RFC 3339/);
    const past = await alice.call('POST', base, { name: 'k', expires_at: '2020-01-01T00:00:00Z' });
    expectOryError(past, 400, /expires_at: must be in the future/);
    expect(past.body.error.details.fields).toEqual({ expires_at: ['must be in the future'] });
    expectOryError(await alice.call('DELETE', `${base}/not-a-uuid`), 400, /path parameter "token_id" must be a UUID/);
    expectOryError(await alice.call('GET', '/projects/no-such-project/tokens'), 404);
    expectOryError(await alice.call('GET', '/projects/bad%20slug!/tokens'), 400, /"project"/);
    expect((await alice.projects.listProjectApiKeys({ project: project.id })).data).toEqual([]);
  });
});

describe('workspace API keys', () => {
  it('are managed by workspace owners and kept from strangers', async () => {
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Keys Inc' } });
    const created = await alice.workspaces.createWorkspaceApiKey({
      workspace: ws.id,
      createWorkspaceApiKeyBody: { name: 'terraform' },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'terraform', owner_id: alice.id, workspace_id: ws.id });
    expect(created.data.value).toMatch(/^ory_wak_/);
    const { value: _secret, ...listedKey } = created.data;
    expect((await alice.workspaces.listWorkspaceApiKeys({ workspace: ws.id })).data).toEqual([listedKey]);

    expectOryError(await bob.call('GET', `/workspaces/${ws.id}/tokens`), 403);
    expectOryError(await bob.call('POST', `/workspaces/${ws.id}/tokens`, { name: 'mine' }), 403);
    expectOryError(await bob.call('DELETE', `/workspaces/${ws.id}/tokens/${created.data.id}`), 403);
    expectOryError(await alice.call('POST', `/workspaces/${ws.id}/tokens`, { name: '' }), 400, /name/);

    expect((await alice.call('DELETE', `/workspaces/${ws.id}/tokens/${created.data.id}`)).status).toBe(204);
    expect((await alice.workspaces.listWorkspaceApiKeys({ workspace: ws.id })).data).toEqual([]);
  });

  it("act as an owner of their own workspace and its projects, and see nothing of another user's", async () => {
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Automation' } });
    const inside = await createProject(alice, 'Inside', { workspace_id: ws.id });
    const outside = await createProject(alice, 'Outside');
    const { data: bobsWs } = await bob.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Bob’s' } });
    const bobsProject = await createProject(bob, 'Bob’s project', { workspace_id: bobsWs.id });
    const { data: key } = await alice.workspaces.createWorkspaceApiKey({
      workspace: ws.id,
      createWorkspaceApiKeyBody: { name: 'ci' },
    });

    // Through @ory/client, as a CLI or Terraform would call: `accessToken` becomes the bearer header.
    const asKey = new WorkspaceApi(new Configuration({ basePath: stack.url, accessToken: key.value! }));
    expect((await asKey.getWorkspace({ workspace: ws.id })).data.id).toBe(ws.id);
    expect((await asKey.listWorkspaces()).data.workspaces.map((w) => w.id)).toEqual([ws.id]);
    expect((await asKey.listWorkspaceProjects({ workspace: ws.id })).data.projects.map((p) => p.id)).toEqual([inside.id]);

    const projects = await keyCall(stack, key.value!, 'GET', '/projects');
    expect(projects.body.map((p: { id: string }) => p.id)).toEqual([inside.id]);
    const renamed = await keyCall(stack, key.value!, 'PATCH', `/projects/${inside.id}`, [
      { op: 'replace', path: '/name', value: 'Renamed by CI' },
    ]);
    expect(renamed.body.project.name).toBe('Renamed by CI');
    const made = await keyCall(stack, key.value!, 'POST', '/projects', { name: 'Made by CI', environment: 'dev' });
    expect(made.status).toBe(201);
    expect(made.body.workspace_id).toBe(ws.id);
    // A key mints no keys: a leaked one would otherwise live on through the keys it made.
    expectOryError(await keyCall(stack, key.value!, 'POST', `/projects/${inside.id}/tokens`, { name: 'from ci' }), 403, /API key cannot create API keys/);
    expectOryError(await keyCall(stack, key.value!, 'POST', `/workspaces/${ws.id}/tokens`, { name: 'from ci' }), 403, /API key cannot create API keys/);
    expect((await alice.call('GET', `/workspaces/${ws.id}/tokens`)).body.map((k: { name: string }) => k.name)).toEqual(['ci']);
    expect((await alice.call('GET', `/projects/${inside.id}/tokens`)).body).toEqual([]);
    const projectKey = await alice.call('POST', `/projects/${inside.id}/tokens`, { name: 'from alice' });
    expect(projectKey.status).toBe(201);

    // Nothing outside its workspace: Alice's own project elsewhere, Bob's workspace and projects.
    expectOryError(await keyCall(stack, key.value!, 'GET', `/projects/${outside.id}`), 403);
    expectOryError(await keyCall(stack, key.value!, 'GET', `/workspaces/${bobsWs.id}`), 403);
    expectOryError(await keyCall(stack, key.value!, 'GET', `/workspaces/${bobsWs.id}/projects`), 403);
    expectOryError(await keyCall(stack, key.value!, 'GET', `/projects/${bobsProject.id}`), 403);
    expectOryError(await keyCall(stack, key.value!, 'DELETE', `/projects/${bobsProject.id}`), 403);
    expectOryError(await keyCall(stack, key.value!, 'GET', `/projects/${bobsProject.id}/tokens`), 403);
    const elsewhere = { name: 'Sneaky', environment: 'dev', workspace_id: bobsWs.id };
    expectOryError(await keyCall(stack, key.value!, 'POST', '/projects', elsewhere), 403);
    expect((await bob.workspaces.listWorkspaceProjects({ workspace: bobsWs.id })).data.projects).toHaveLength(1);

    // Calls that belong to a person refuse keys.
    expectOryError(await keyCall(stack, key.value!, 'POST', '/workspaces', { name: 'More' }), 401, /session/);
    expectOryError(await keyCall(stack, key.value!, 'GET', '/console/active/project'), 401);
    // A project key is for its project's own APIs, not the control plane.
    expectOryError(await keyCall(stack, projectKey.body.value, 'GET', `/projects/${inside.id}`), 401, /ory_wak_/);
  });

  it('answer 401 once deleted or expired', async () => {
    const { data: ws } = await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Short-lived' } });
    const make = async (name: string) =>
      (await alice.workspaces.createWorkspaceApiKey({ workspace: ws.id, createWorkspaceApiKeyBody: { name, expires_at: inAYear() } })).data;
    const deleted = await make('deleted');
    const expired = await make('expired');
    expect((await keyCall(stack, deleted.value!, 'GET', `/workspaces/${ws.id}`)).status).toBe(200);
    expect((await keyCall(stack, expired.value!, 'GET', `/workspaces/${ws.id}`)).status).toBe(200);

    await alice.workspaces.deleteWorkspaceApiKey({ workspace: ws.id, tokenId: deleted.id });
    // The expiry is in the past now (set in the database: a test does not wait for a clock).
    await stack.db.orm
      .update(workspaceApiKeys)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(workspaceApiKeys.id, expired.id));

    for (const key of [deleted, expired]) {
      expectOryError(await keyCall(stack, key.value!, 'GET', `/workspaces/${ws.id}`), 401, /unknown, deleted or expired/);
      expect(await authenticateApiKey(stack.db, `Bearer ${key.value}`, stack.clock.now())).toBeNull();
    }
    expectOryError(await keyCall(stack, 'ory_wak_not-a-real-key', 'GET', '/workspaces'), 401);
    // No credentials at all: 401 before the body is looked at.
    expectOryError(await rawCall(stack.url, null, 'GET', `/workspaces/${ws.id}/tokens`), 401);
    expectOryError(await rawCall(stack.url, null, 'POST', `/workspaces/${ws.id}/tokens`, {}), 401, /session/);
  });
});
