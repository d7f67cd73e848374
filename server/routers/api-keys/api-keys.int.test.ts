import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { setPlan } from '../../test-support/localstack-data';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../../test-support/bff';
import { registerUser, type TestUser } from '../../test-support/users';
import { verifyEmail } from '../../test-support/verify-email';

/*
 * API keys act with their creator's authority (through the BFF and over HTTP, on a real local stack):
 * removing the creator revokes them, the console names them first, and a key never mints more keys.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: TestUser;

const as = (user: TestUser) => callerFor(deps, user.cookie);

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = await registerUser(stack.url, { name: 'Olga Owner' });
});
afterAll(async () => {
  await stack?.close();
});

/** A call to the local stack with nothing but an API key. */
async function withKey(key: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  await res.arrayBuffer();
  return res.status;
}

/** A workspace on Production with a second owner, and a project in it. */
async function sharedWorkspace(name: string) {
  const workspace = await as(owner).workspaces.create({ name });
  await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Production@0');
  const project = await as(owner).projects.create({ name: `${name} project`, environment: 'dev', workspaceId: workspace.id });
  const peer = await registerUser(stack.url, { name: 'Peer Owner' });
  await verifyEmail(stack.url, peer);
  const { created_invite } = await as(owner).invites.create({ workspaceId: workspace.id, email: peer.email, role: 'owner' });
  await as(peer).invites.accept({ inviteId: created_invite.id });
  return { workspaceId: workspace.id, project, peer };
}

describe('keys of a member', () => {
  it('are named before the member is removed, and stop working once they are', async () => {
    const { workspaceId, project, peer } = await sharedWorkspace('Departure');
    const slug = (await as(owner).projects.get({ projectId: project.id })).slug;
    const workspaceKey = await as(peer).apiKeys.create({ workspaceId, name: 'Peer CI' });
    const projectKey = await as(peer).apiKeys.create({ projectId: project.id, name: 'Peer importer' });
    const ownersKey = await as(owner).apiKeys.create({ workspaceId, name: 'Owner CI' });
    expect(await withKey(workspaceKey.value, 'GET', `/workspaces/${workspaceId}`)).toBe(200);
    expect(await withKey(projectKey.value, 'GET', `/project-api/${slug}/admin/identities`)).toBe(200);

    // The confirmation names exactly the keys the removal revokes; only an owner may ask.
    const named = await as(owner).members.keys({ workspaceId, memberId: peer.identityId });
    expect(named.map((k) => k.name).sort()).toEqual(['Peer CI', 'Peer importer']);
    expect((await as(owner).members.keys({ projectId: project.id, memberId: peer.identityId })).map((k) => k.name)).toEqual(['Peer importer']);
    const stranger = await registerUser(stack.url, { name: 'Stranger' });
    expect((await rejection(as(stranger).members.keys({ workspaceId, memberId: peer.identityId }))).code).toBe('FORBIDDEN');

    await as(owner).members.remove({ workspaceId, memberId: peer.identityId });
    expect(await withKey(workspaceKey.value, 'GET', `/workspaces/${workspaceId}`)).toBe(401);
    // The removed member's key cannot invite them back as an owner.
    expect(await withKey(workspaceKey.value, 'POST', `/workspaces/${workspaceId}/invites`, { invitee_email: peer.email, role: 'owner' })).toBe(401);
    expect(await withKey(projectKey.value, 'GET', `/project-api/${slug}/admin/identities`)).toBe(401);
    const left = [...(await as(owner).apiKeys.list({ workspaceId })), ...(await as(owner).apiKeys.list({ projectId: project.id }))];
    expect(left.map((k) => k.name)).toEqual(['Owner CI']);
    expect(await withKey(ownersKey.value, 'GET', `/workspaces/${workspaceId}`)).toBe(200);
  });

  it('stop working when their creator is no longer an owner', async () => {
    const { workspaceId, peer } = await sharedWorkspace('Demotion');
    const key = await as(peer).apiKeys.create({ workspaceId, name: 'Peer deploys' });
    expect(await withKey(key.value, 'GET', `/workspaces/${workspaceId}`)).toBe(200);
    await as(owner).members.setRole({ workspaceId, memberId: peer.identityId, role: 'developer' });
    expect(await withKey(key.value, 'GET', `/workspaces/${workspaceId}`)).toBe(401);
  });

  it('cannot mint further keys: creating a key with a key is refused with 403 and says why', async () => {
    const workspace = await as(owner).workspaces.create({ name: 'No minting' });
    const project = await as(owner).projects.create({ name: 'Minted', environment: 'dev', workspaceId: workspace.id });
    const key = await as(owner).apiKeys.create({ workspaceId: workspace.id, name: 'CI' });
    for (const path of [`/workspaces/${workspace.id}/tokens`, `/projects/${project.id}/tokens`]) {
      const res = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.value}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Minted' }),
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { reason: string } }).error.reason).toMatch(/An API key cannot create API keys/);
    }
    expect((await as(owner).apiKeys.list({ workspaceId: workspace.id })).map((k) => k.name)).toEqual(['CI']);
    expect(await as(owner).apiKeys.list({ projectId: project.id })).toEqual([]);
  });
});
