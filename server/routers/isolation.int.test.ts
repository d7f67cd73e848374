import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let intruder: ReturnType<typeof callerFor>;
let workspace: string;
let projectId: string;
let looseProjectId: string;
let intruderWorkspace: string;
let intruderProject: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Owner' }), registerUser(stack.url, { name: 'Intruder' })]);
  owner = callerFor(deps, a.cookie);
  intruder = callerFor(deps, b.cookie);
  workspace = (await owner.workspaces.create({ name: 'Private' })).id!;
  await owner.billing.changePlan({ workspaceId: workspace, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
  projectId = (await owner.projects.create({ name: 'Secret', environment: 'prod', workspaceId: workspace })).id;
  looseProjectId = (await owner.projects.create({ name: 'Loose secret', environment: 'dev' })).id;
  await owner.projects.setActive({ projectId });
  intruderWorkspace = (await intruder.workspaces.create({ name: 'Mine' })).id!;
  intruderProject = (await intruder.projects.create({ name: 'Mine too', environment: 'dev', workspaceId: intruderWorkspace })).id;
});

afterAll(async () => {
  await stack?.close();
});

async function refused(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect(['FORBIDDEN', 'NOT_FOUND']).toContain((error as TRPCError).code);
}

describe('a second user', () => {
  it('sees none of the first user’s workspaces or projects in lists', async () => {
    expect((await intruder.workspaces.list()).workspaces.map((w) => w.id)).toEqual([intruderWorkspace]);
    const projects = (await intruder.projects.list()).map((p) => p.id);
    expect(projects).toEqual([intruderProject]);
    // spec §6 fallback: a 403 on the workspace's list answers the caller's own projects, never the owner's
    const fallback = await intruder.workspaces.listProjects({ workspaceId: workspace });
    expect(fallback.map((p) => p.id)).not.toContain(projectId);
    expect(fallback.map((p) => p.id).every((id) => id === intruderProject)).toBe(true);
  });

  it('is refused even right after the first user’s answers were cached by the same BFF instance', async () => {
    await owner.projects.get({ projectId });
    await owner.workspaces.get({ workspaceId: workspace });
    expect(await owner.permissions.project({ projectId, permissions: ['backoffice.project.read'] })).toEqual({ 'backoffice.project.read': true });
    await refused(intruder.projects.get({ projectId }));
    await refused(intruder.workspaces.get({ workspaceId: workspace }));
    expect(await intruder.permissions.project({ projectId, permissions: ['backoffice.project.read'] })).toEqual({ 'backoffice.project.read': false });
  });

  it('does not see the first user’s active project', async () => {
    const error = await intruder.projects.getActive().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('NOT_FOUND');
  });

  it('can read nothing of them', async () => {
    await refused(intruder.workspaces.get({ workspaceId: workspace }));
    for (const id of [projectId, looseProjectId]) {
      await refused(intruder.projects.get({ projectId: id }));
      await refused(intruder.projects.members({ projectId: id }));
      await refused(intruder.projects.setActive({ projectId: id }));
    }
  });

  it('gets no permission on them', async () => {
    const all = ['backoffice.project.read', 'backoffice.project.write', 'backoffice.project.delete', 'backoffice.project.upgrade'] as const;
    for (const id of [projectId, looseProjectId]) {
      expect(await intruder.permissions.project({ projectId: id, permissions: [...all] })).toEqual(Object.fromEntries(all.map((p) => [p, false])));
    }
    const names = ['backoffice.workspace.read', 'backoffice.workspace.write', 'backoffice.workspace.delete', 'backoffice.workspace.upgrade'] as const;
    expect(await intruder.permissions.workspace({ workspaceId: workspace, permissions: [...names] })).toEqual(Object.fromEntries(names.map((p) => [p, false])));
  });

  it('can change nothing of them', async () => {
    await refused(intruder.workspaces.update({ workspaceId: workspace, name: 'Hijacked' }));
    await refused(intruder.workspaces.addProject({ workspaceId: workspace, projectId: intruderProject }));
    await refused(intruder.workspaces.addProject({ workspaceId: intruderWorkspace, projectId }));
    await refused(intruder.workspaces.addProject({ workspaceId: intruderWorkspace, projectId: looseProjectId }));
    await refused(intruder.projects.create({ name: 'Planted', environment: 'dev', workspaceId: workspace }));
    for (const id of [projectId, looseProjectId]) {
      await refused(intruder.projects.update({ projectId: id, name: 'Hijacked' }));
      await refused(intruder.projects.setEnvironment({ projectId: id, environment: 'dev' }));
      await refused(intruder.projects.delete({ projectId: id, confirmName: 'Secret' }));
      await refused(intruder.projects.delete({ projectId: id, confirmName: 'Loose secret' }));
    }
  });

  it('left everything of the first user unchanged', async () => {
    expect((await owner.workspaces.get({ workspaceId: workspace })).name).toBe('Private');
    const project = await owner.projects.get({ projectId });
    expect(project).toMatchObject({ environment: 'prod', workspace_id: workspace, current_revision: { name: 'Secret' } });
    expect((await owner.projects.get({ projectId: looseProjectId })).workspace_id).toBeNull();
    expect((await owner.workspaces.listProjects({ workspaceId: workspace })).map((p) => p.id)).toEqual([projectId]);
    expect(await owner.projects.getActive()).toEqual({ projectId });
    expect((await owner.projects.members({ projectId })).map((m) => m.name)).toEqual(['Owner']);
    expect((await owner.workspaces.list()).workspaces.map((w) => w.name)).toEqual(['Private']);
    expect((await intruder.projects.list()).map((p) => p.id)).toEqual([intruderProject]);
  });
});
