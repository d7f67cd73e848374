import { afterAll, describe, expect, it } from 'vitest';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { createDurableStore, type DurableStore } from '../test-support/stack';
import { registerUser } from '../test-support/users';

let stack: TestStack | undefined;
let store: DurableStore | undefined;

afterAll(async () => {
  await stack?.close();
  await store?.dispose();
});

describe('the local stack restarted on the same store (data directory or PostgreSQL schema)', () => {
  it('still has every acknowledged write made through the BFF', async () => {
    store = await createDurableStore();
    stack = await startTestStack({ store });
    const user = await registerUser(stack.url, { name: 'Durable' });
    let caller = callerFor(testDeps(stack.url), user.cookie);
    const workspace = await caller.workspaces.create({ name: 'Before restart' });
    await caller.workspaces.update({ workspaceId: workspace.id!, name: 'Renamed before restart' });
    const project = await caller.projects.create({ name: 'Kept', environment: 'stage', workspaceId: workspace.id! });
    await caller.projects.update({ projectId: project.id, name: 'Kept and renamed' });
    await caller.billing.changePlan({ workspaceId: workspace.id!, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
    await caller.projects.setEnvironment({ projectId: project.id, environment: 'prod' });
    await caller.projects.setActive({ projectId: project.id });
    const doomed = await caller.projects.create({ name: 'Doomed', environment: 'dev' });
    await caller.projects.delete({ projectId: doomed.id, confirmName: 'Doomed' });
    await stack.close();

    stack = await startTestStack({ store });
    caller = callerFor(testDeps(stack.url), user.cookie);
    expect((await caller.auth.session()).session?.identity?.id).toBe(user.identityId);
    expect(await caller.workspaces.get({ workspaceId: workspace.id! })).toMatchObject({ name: 'Renamed before restart' });
    expect(await caller.projects.get({ projectId: project.id })).toMatchObject({
      environment: 'prod',
      workspace_id: workspace.id,
      current_revision: { name: 'Kept and renamed' },
    });
    expect(await caller.projects.getActive()).toEqual({ projectId: project.id });
    expect((await caller.projects.list()).map((p) => p.id)).toEqual([project.id]);
    // Two stack starts on a durable store and a dozen writes: past the default 30 s on a loaded 2-core machine.
  }, 120_000);
});
