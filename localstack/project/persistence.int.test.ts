import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableStore, startTestStack, type DurableStore } from '../../server/test-support/stack';
import { registerUser } from '../../server/test-support/users';
import { rawCall } from '../test-support/control-plane';

let store: DurableStore;

beforeAll(async () => {
  store = await createDurableStore();
});
afterAll(async () => {
  await store?.dispose();
});

// Two on-disk PGlite starts take a while on a small machine.
describe('control-plane writes across a restart', () => {
  it('keeps workspaces, projects, revisions, memberships and the active project', async () => {
    const first = await startTestStack(store.options);
    let cookie: string;
    let workspaceId: string;
    let projectId: string;
    let revisionId: string;
    try {
      ({ cookie } = await registerUser(first.url, { name: 'Persistent', password: 'a-Long-and-unusual-passw0rd' }));
      const ws = await rawCall(first.url, cookie, 'POST', '/workspaces', { name: 'Durable' });
      workspaceId = ws.body.id;
      const project = await rawCall(first.url, cookie, 'POST', '/normalized/projects', {
        name: 'Kept',
        environment: 'stage',
        workspace_id: workspaceId,
        custom_field: { survives: true },
      });
      projectId = project.body.id;
      const renamed = await rawCall(first.url, cookie, 'PUT', `/normalized/projects/${projectId}`, {
        ...project.body.current_revision,
        name: 'Kept and renamed',
      });
      revisionId = renamed.body.current_revision.id;
      await rawCall(first.url, cookie, 'PUT', '/console/active/project', { project_id: projectId });
    } finally {
      await first.close();
    }

    const second = await startTestStack(store.options);
    try {
      const got = await rawCall(second.url, cookie, 'GET', `/normalized/projects/${projectId}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        environment: 'stage',
        workspace_id: workspaceId,
        current_revision: { id: revisionId, name: 'Kept and renamed', custom_field: { survives: true } },
      });
      const workspaces = await rawCall(second.url, cookie, 'GET', '/workspaces');
      expect(workspaces.body.workspaces.map((w: { id: string }) => w.id)).toEqual([workspaceId]);
      const active = await rawCall(second.url, cookie, 'GET', '/console/active/project');
      expect(active.body).toEqual({ project_id: projectId });
    } finally {
      await second.close();
    }
  }, 120_000);
});
