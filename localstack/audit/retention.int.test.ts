import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { auditEvents } from './schema';
import { pruneAuditLog } from './routes';

const DAY_MS = 24 * 60 * 60_000;

let stack: LocalStack;
let owner: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Keeper');
});

afterAll(async () => {
  await stack?.close();
});

const setPlan = async (body: Record<string, string>) => expect((await rawCall(stack.url, null, 'PUT', '/local/plan', body)).status).toBe(204);
const actions = (answer: { body: { events: { action: string }[] } }) => answer.body.events.map((e) => e.action);

describe('the audit log keeps what the plan keeps', () => {
  it("shows a workspace's and a project's events of the plan's history, and an upgrade reaches further back", async () => {
    const workspace = await owner.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Retained' } });
    const workspaceId = workspace.data.id;
    const project = await createProject(owner, 'Kept', { workspace_id: workspaceId });
    const workspaceLog = `/workspaces/${workspaceId}/audit-log`;
    const projectLog = `/projects/${project.id}/audit-log`;

    // Develop keeps one day.
    const fresh = await owner.call('GET', workspaceLog);
    expect(fresh.status).toBe(200);
    expect(fresh.body.retention_days).toBe(1);
    expect(actions(fresh)).toEqual(expect.arrayContaining(['workspace.create', 'project.create']));
    const created = fresh.body.events.find((e: { action: string }) => e.action === 'project.create');
    expect((await owner.call('GET', `${projectLog}/${created.id}`)).status).toBe(200);

    // Two days on (the clock carries the owner's session along), the day-old events are past what Develop keeps.
    expect((await rawCall(stack.url, null, 'PUT', '/local/clock', { advance_days: 2 })).status).toBe(200);
    await owner.workspaces.updateWorkspace({ workspace: workspaceId, updateWorkspaceBody: { name: 'Retained, renamed' } });
    const later = await owner.call('GET', workspaceLog);
    expect(actions(later)).toEqual(['workspace.update']);
    expect(actions(await owner.call('GET', projectLog))).toEqual([]);
    const gone = await owner.call('GET', `${projectLog}/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.reason).toBe(`This log has no event ${created.id}.`);

    // The project on Production reads 30 days; the workspace, still on Develop, keeps its one day.
    await setPlan({ project_id: project.id, plan: 'Production@0' });
    const upgraded = await owner.call('GET', projectLog);
    expect(upgraded.body.retention_days).toBe(30);
    expect(actions(upgraded)).toEqual(expect.arrayContaining(['project.create']));
    expect((await owner.call('GET', `${projectLog}/${created.id}`)).status).toBe(200);
    expect((await owner.call('GET', workspaceLog)).body.retention_days).toBe(1);

    // The workspace on Growth: 90 days, its older events back.
    await setPlan({ workspace_id: workspaceId, plan: 'Growth@0' });
    const growth = await owner.call('GET', workspaceLog);
    expect(growth.body.retention_days).toBe(90);
    expect(actions(growth)).toEqual(expect.arrayContaining(['workspace.update', 'workspace.create', 'project.create']));
  });

  it('deletes the events older than any plan keeps, and only those', async () => {
    const project = await createProject(owner, 'Pruned');
    const [oldest] = (await owner.call('GET', `/projects/${project.id}/audit-log`)).body.events;
    expect(oldest.action).toBe('project.create');
    const count = async () => (await stack.db.orm.select({ id: auditEvents.id }).from(auditEvents)).length;
    const before = await count();

    // Asked as of 360 days on (the oldest event, of the test before, is two days older), everything stays; as of 367 days on, everything goes.
    const now = stack.clock.now().getTime();
    expect(await pruneAuditLog(stack.db, new Date(now + 360 * DAY_MS))).toBe(0);
    expect(await count()).toBe(before);
    expect(await pruneAuditLog(stack.db, new Date(now + 367 * DAY_MS))).toBe(before);
    expect(await count()).toBe(0);
  });
});
