import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { expectOryError, newUser, startTestStack, type TestUser } from '../test-support/control-plane';

let stack: LocalStack;
let alice: TestUser;
let bob: TestUser;
let workspaceId: string;
let projectId: string;
let loneProjectId: string;
let revisionId: string;

beforeAll(async () => {
  stack = await startTestStack();
  [alice, bob] = await Promise.all([newUser(stack, 'Alice'), newUser(stack, 'Bob')]);
  workspaceId = (await alice.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Private' } })).data.id;
  await alice.call('PUT', `/workspaces/${workspaceId}/subscription`, { plan: 'Production@0', interval: 'monthly' });
  const project = await alice.projects.createProject({
    createProjectBody: { name: 'Secret', environment: 'prod', workspace_id: workspaceId },
  });
  projectId = project.data.id;
  revisionId = project.data.revision_id;
  loneProjectId = (await alice.projects.createProject({ createProjectBody: { name: 'Lone', environment: 'dev' } })).data
    .id;
});
afterAll(async () => {
  await stack?.close();
});

describe('a second user', () => {
  it('cannot see the first user’s workspace or projects in any list', async () => {
    await bob.projects.createProject({ createProjectBody: { name: 'Bob’s own', environment: 'dev' } });
    const projects = (await bob.projects.listProjects()).data;
    expect(projects.map((p) => p.name)).toEqual(['Bob’s own']);
    const workspaces = (await bob.workspaces.listWorkspaces({})).data;
    expect(workspaces.workspaces).toEqual([]);
  });

  it('gets 403 on every path of the first user’s workspace and projects', async () => {
    const patch = [{ op: 'replace', path: '/name', value: 'Hijacked' }];
    for (const id of [projectId, loneProjectId]) {
      const calls: [string, string, unknown?][] = [
        ['GET', `/projects/${id}`],
        ['PUT', `/projects/${id}`, { name: 'Hijacked', services: {} }],
        ['PATCH', `/projects/${id}`, patch],
        ['PATCH', `/projects/${id}/revision/${revisionId}`, patch],
        ['DELETE', `/projects/${id}`],
        ['GET', `/normalized/projects/${id}`],
        ['PUT', `/normalized/projects/${id}`, { name: 'Hijacked' }],
        ['PATCH', `/normalized/projects/${id}/revision/${revisionId}`, patch],
        ['PUT', `/projects/${id}/environment`, { environment: 'dev' }],
        ['GET', `/projects/${id}/members`],
        ['DELETE', `/projects/${id}/members/${alice.id}`],
        ['PUT', '/console/active/project', { project_id: id }],
      ];
      for (const [method, path, body] of calls) {
        expectOryError(await bob.call(method, path, body), 403);
      }
    }
    const { data: bobsWorkspace } = await bob.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Bob’s' } });
    const workspaceCalls: [string, string, unknown?][] = [
      ['GET', `/workspaces/${workspaceId}`],
      ['PUT', `/workspaces/${workspaceId}`, { name: 'Hijacked' }],
      ['GET', `/workspaces/${workspaceId}/members`],
      ['DELETE', `/workspaces/${workspaceId}/members/${alice.id}`],
      ['GET', `/workspaces/${workspaceId}/projects`],
      ['POST', `/workspaces/${workspaceId}/add/${loneProjectId}`, { workspace: workspaceId, project: loneProjectId }],
      ['POST', '/projects', { name: 'Sneaky', environment: 'dev', workspace_id: workspaceId }],
      ['POST', '/normalized/projects', { name: 'Sneaky', environment: 'dev', workspace_id: workspaceId }],
      // Bob owns the target workspace but not the project.
      ['POST', `/workspaces/${bobsWorkspace.id}/add/${projectId}`, { workspace: bobsWorkspace.id, project: projectId }],
    ];
    for (const [method, path, body] of workspaceCalls) {
      const answer = await bob.call(method, path, body);
      expectOryError(answer, 403);
    }
    expect((await bob.call('GET', `/workspaces/${workspaceId}`)).body.error.reason).toBe(
      'You are not a member of this workspace.',
    );
  });

  it('gets 404 for ids that do not exist and all-false permission answers', async () => {
    const nothing = '00000000-0000-4000-8000-000000000000';
    expectOryError(await bob.call('GET', `/projects/${nothing}`), 404);
    expectOryError(await bob.call('GET', `/workspaces/${nothing}`), 404);
    expectOryError(await bob.call('GET', `/normalized/projects/${nothing}`), 404);
    const access = await bob.call('POST', `/projects/${projectId}/access`, [{ permission: 'backoffice.project.read' }]);
    expect(access.body).toEqual({ 'backoffice.project.read': false });
  });

  it('left everything of the first user unchanged', async () => {
    const project = (await alice.projects.getProject({ projectId })).data;
    expect(project).toMatchObject({ name: 'Secret', environment: 'prod', revision_id: revisionId });
    expect((await alice.workspaces.getWorkspace({ workspace: workspaceId })).data.name).toBe('Private');
    expect((await alice.projects.getProjectMembers({ project: loneProjectId })).data).toHaveLength(1);
    const secretMembers = (await alice.projects.getProjectMembers({ project: projectId })).data;
    expect(secretMembers.map((m) => m.id)).toEqual([alice.id]);
  });
});
