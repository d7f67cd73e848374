import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityVerifiableAddresses } from '../identity/schema';
import type { LocalStack } from '../index';
import {
  addProjectMember,
  addWorkspaceMember,
  createProject,
  expectOryError,
  failure,
  newUser,
  startTestStack,
  type TestUser,
} from '../test-support/control-plane';

const PROJECT_PERMISSIONS = [
  'backoffice.project.delete',
  'backoffice.project.read',
  'backoffice.project.write',
  'backoffice.project.upgrade',
];
const query = (names: string[]) => names.map((permission) => ({ permission }));

let stack: LocalStack;
let owner: TestUser;
let developer: TestUser;
let stranger: TestUser;
let workspaceId: string;
let projectId: string;

beforeAll(async () => {
  stack = await startTestStack();
  [owner, developer, stranger] = await Promise.all([
    newUser(stack, 'Owner'),
    newUser(stack, 'Developer'),
    newUser(stack, 'Stranger'),
  ]);
  workspaceId = (await owner.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Team' } })).data.id;
  await addWorkspaceMember(stack, workspaceId, developer.id, 'developer');
  projectId = (
    await owner.projects.createProject({
      createProjectBody: { name: 'Shared', environment: 'dev', workspace_id: workspaceId },
    })
  ).data.id;
});
afterAll(async () => {
  await stack?.close();
});

describe('project and workspace access', () => {
  it('answers the four project permissions truthfully for owner, developer and stranger', async () => {
    const body = [...query(PROJECT_PERMISSIONS), { permission: 'backoffice.project.nonsense' }];
    const asOwner = await owner.call('POST', `/projects/${projectId}/access`, body);
    expect(asOwner.status).toBe(200);
    expect(asOwner.body).toEqual({
      'backoffice.project.delete': true,
      'backoffice.project.read': true,
      'backoffice.project.write': true,
      'backoffice.project.upgrade': true,
      'backoffice.project.nonsense': false,
    });
    const asDeveloper = await developer.call('POST', `/projects/${projectId}/access`, body);
    expect(asDeveloper.body).toEqual({
      'backoffice.project.delete': false,
      'backoffice.project.read': true,
      'backoffice.project.write': true,
      'backoffice.project.upgrade': false,
      'backoffice.project.nonsense': false,
    });
    const asStranger = await stranger.call('POST', `/projects/${projectId}/access`, body);
    expect(asStranger.status).toBe(200);
    expect(Object.values(asStranger.body)).toEqual([false, false, false, false, false]);

    expectOryError(await owner.call('POST', '/projects/00000000-0000-4000-8000-000000000000/access', body), 404);
    expectOryError(await owner.call('POST', `/projects/${projectId}/access`, { permission: 'x' }), 400);
    expectOryError(await owner.call('POST', `/projects/${projectId}/access`, []), 400);
  });

  it('answers workspace permissions in {permissions}', async () => {
    const names = ['read', 'write', 'delete', 'upgrade'].map((p) => `backoffice.workspace.${p}`);
    const asOwner = await owner.call('POST', `/workspaces/${workspaceId}/access`, query(names));
    expect(asOwner.body).toEqual({ permissions: Object.fromEntries(names.map((n) => [n, true])) });
    const asDeveloper = await developer.call('POST', `/workspaces/${workspaceId}/access`, query(names));
    expect(asDeveloper.body.permissions).toEqual({
      'backoffice.workspace.read': true,
      'backoffice.workspace.write': true,
      'backoffice.workspace.delete': false,
      'backoffice.workspace.upgrade': false,
    });
    const asStranger = await stranger.call('POST', `/workspaces/${workspaceId}/access`, query(names));
    expect(Object.values(asStranger.body.permissions)).toEqual([false, false, false, false]);
  });

  it('lets a developer read and write but not purge', async () => {
    const got = await developer.projects.getProject({ projectId });
    expect(got.data.name).toBe('Shared');
    const renamed = await developer.projects.patchProject({
      projectId,
      jsonPatch: [{ op: 'replace', path: '/name', value: 'Shared by dev' }],
    });
    expect(renamed.data.project.name).toBe('Shared by dev');
    expectOryError(await failure(developer.projects.purgeProject({ projectId })), 403, /owner/);
    expectOryError(await developer.call('PUT', `/workspaces/${workspaceId}`, { name: 'Mine now' }), 403, /owner/);
  });

  it('stores the active project per user and refuses projects the caller cannot read', async () => {
    expectOryError(await developer.call('GET', '/console/active/project'), 404, /No active project/);
    const set = await developer.call('PUT', '/console/active/project', { project_id: projectId });
    expect(set).toEqual({ status: 204, body: null });
    expect(await developer.call('GET', '/console/active/project')).toEqual({ status: 200, body: { project_id: projectId } });
    expectOryError(await owner.call('GET', '/console/active/project'), 404);

    expectOryError(await stranger.call('PUT', '/console/active/project', { project_id: projectId }), 403);
    const missing = { project_id: '00000000-0000-4000-8000-000000000000' };
    expectOryError(await stranger.call('PUT', '/console/active/project', missing), 404);
    expectOryError(await stranger.call('PUT', '/console/active/project', { project_id: 'x' }), 400, /project_id/);
  });

  it('clears the active project for everyone when the project is purged', async () => {
    const { data: doomed } = await owner.projects.createProject({
      createProjectBody: { name: 'Doomed', environment: 'dev', workspace_id: workspaceId },
    });
    await owner.call('PUT', '/console/active/project', { project_id: doomed.id });
    await developer.call('PUT', '/console/active/project', { project_id: doomed.id });
    await owner.projects.purgeProject({ projectId: doomed.id });
    expectOryError(await owner.call('GET', '/console/active/project'), 404);
    expectOryError(await developer.call('GET', '/console/active/project'), 404);
  });

  it('lists project members with their source and removes direct members (owners only)', async () => {
    await addProjectMember(stack, projectId, stranger.id, 'developer');
    const members = (await owner.projects.getProjectMembers({ project: projectId })).data;
    expect(members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: owner.id, email: owner.email, name: 'Owner', role: 'owner', source: 'workspace' }),
        expect.objectContaining({ id: developer.id, role: 'developer', source: 'workspace' }),
        expect.objectContaining({ id: stranger.id, role: 'developer', source: 'project' }),
      ]),
    );
    expect(members).toHaveLength(3);
    expect(members.every((m) => m.email_verified === false)).toBe(true);
    await stack.db.orm
      .update(identityVerifiableAddresses)
      .set({ verified: true })
      .where(eq(identityVerifiableAddresses.identity_id, owner.id));
    const afterVerification = (await developer.projects.getProjectMembers({ project: projectId })).data;
    expect(afterVerification.find((m) => m.id === owner.id)?.email_verified).toBe(true);

    const byDeveloper = await failure(
      developer.projects.removeProjectMember({ project: projectId, member: stranger.id }),
    );
    expectOryError(byDeveloper, 403);
    const viaWorkspace = await failure(owner.projects.removeProjectMember({ project: projectId, member: developer.id }));
    expectOryError(viaWorkspace, 409, /workspace/);
    const removed = await owner.projects.removeProjectMember({ project: projectId, member: stranger.id });
    expect(removed.status).toBe(204);
    expectOryError(await failure(stranger.projects.getProject({ projectId })), 403);
    const again = await failure(owner.projects.removeProjectMember({ project: projectId, member: stranger.id }));
    expectOryError(again, 404);
  });

  it('never removes the last owner of a project', async () => {
    const solo = await createProject(owner, 'Solo');
    const last = await failure(owner.projects.removeProjectMember({ project: solo.id, member: owner.id }));
    expectOryError(last, 409, /last owner/);
    await addProjectMember(stack, solo.id, developer.id, 'owner');
    expect((await owner.projects.removeProjectMember({ project: solo.id, member: owner.id })).status).toBe(204);
    expectOryError(await failure(owner.projects.getProject({ projectId: solo.id })), 403);
    expect((await developer.projects.getProject({ projectId: solo.id })).data.name).toBe('Solo');
  });
});
