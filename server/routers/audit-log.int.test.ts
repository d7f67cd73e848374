import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser, type TestUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let ownerUser: TestUser;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  ownerUser = await registerUser(stack.url);
  owner = callerFor(deps, ownerUser.cookie);
});

afterAll(async () => {
  await stack?.close();
});

describe('auditLog', () => {
  it('records who did what to which object, and how it ended, for each kind of control-plane and admin write, and never a secret', async () => {
    const workspace = await owner.workspaces.create({ name: 'Audited' });
    const project = await owner.projects.create({ name: 'Ledger', environment: 'dev', workspaceId: workspace.id });
    await owner.projectConfig.setAuthentication({ projectId: project.id, min_password_length: 12 });
    const smtpPassword = 'audit-smtp-password-5c1d';
    await owner.messaging.setEmailConfig({ projectId: project.id, strategy: 'smtp', smtpHost: '127.0.0.1', smtpPort: 1, smtpUsername: 'mailer', smtpPassword, fromAddress: 'no-reply@mailer.example.com', fromName: 'Mailer' });
    const key = await owner.apiKeys.create({ projectId: project.id, name: 'Deploys' });
    const workspaceKey = await owner.apiKeys.create({ workspaceId: workspace.id, name: 'Terraform' });
    const client = await owner.oauth2Clients.create({ projectId: project.id, client: { client_name: 'Audited app', client_secret: 'audit-client-secret-0f9e8d7c6b5a' } });
    await owner.apiKeys.delete({ projectId: project.id, keyId: key.id });
    // A refused write is recorded too: a restore onto a configuration that changed since it was looked at.
    const [latest, older] = (await owner.projectHistory.list({ projectId: project.id })).revisions;
    await owner.projects.update({ projectId: project.id, name: 'Ledger, renamed' });
    expect((await rejection(owner.projectHistory.restore({ projectId: project.id, revisionId: older!.id, currentRevisionId: latest!.id }))).code).toBe('CONFLICT');
    // A workspace key acts for its owner, and the log says which key it was.
    const byKey = await fetch(`${stack.url}/workspaces/${workspace.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${workspaceKey.value}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Audited by key' }),
    });
    expect(byKey.status).toBe(200);

    const { events, nextPageToken } = await owner.auditLog.list({ workspaceId: workspace.id });
    expect(nextPageToken).toBeNull();
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'workspace.create',
        'project.create',
        'project_api_key.create',
        'workspace_api_key.create',
        'oauth2_client.create',
        'project_api_key.delete',
        'project.config_restore',
        'workspace.update',
      ]),
    );
    expect(actions.filter((a) => a.startsWith('project.config_')).length).toBeGreaterThanOrEqual(3);
    // Newest first.
    expect(events.map((e) => e.at)).toEqual([...events.map((e) => e.at)].sort().reverse());
    const byAction = (action: string) => events.find((e) => e.action === action)!;
    expect(byAction('workspace.update')).toMatchObject({
      actor: { id: ownerUser.identityId, kind: 'workspace_api_key', email: ownerUser.email, key_id: workspaceKey.id },
      target_type: 'workspace',
      target_id: workspace.id,
      outcome: 'success',
      status: 200,
      fields: ['name'],
    });
    expect(byAction('project_api_key.create')).toMatchObject({ actor: { kind: 'user', email: ownerUser.email }, project_id: project.id, target_id: key.id, outcome: 'success' });
    expect(byAction('project_api_key.delete')).toMatchObject({ target_id: key.id, outcome: 'success', status: 204 });
    expect(byAction('oauth2_client.create')).toMatchObject({ project_id: project.id, target_id: client.client_id, outcome: 'success', status: 201 });
    expect(byAction('project.create')).toMatchObject({ project_id: project.id, target_id: project.id });
    expect(byAction('project.config_restore')).toMatchObject({ outcome: 'failure', status: 409, target_id: older!.id, fields: ['current_revision_id'] });
    // Names of what was sent, never the values: no password, key or client secret.
    const shown = JSON.stringify(events);
    for (const secret of [smtpPassword, key.value, workspaceKey.value, 'audit-client-secret-0f9e8d7c6b5a']) expect(shown).not.toContain(secret);
    expect(byAction('oauth2_client.create').fields).toContain('client_secret');

    // Filters: an object's actions, one actor, a project, a time window.
    const keys = await owner.auditLog.list({ workspaceId: workspace.id, action: 'project_api_key' });
    expect(keys.events.map((e) => e.action).sort()).toEqual(['project_api_key.create', 'project_api_key.delete']);
    expect((await owner.auditLog.list({ workspaceId: workspace.id, action: 'project_api_key.delete' })).events).toHaveLength(1);
    expect((await owner.auditLog.list({ workspaceId: workspace.id, actorId: ownerUser.identityId })).events).toHaveLength(events.length);
    const ofProject = await owner.auditLog.list({ workspaceId: workspace.id, forProjectId: project.id });
    expect(ofProject.events.length).toBeGreaterThan(0);
    expect(ofProject.events.every((e) => e.project_id === project.id)).toBe(true);
    // The project's own log holds the same events.
    expect((await owner.auditLog.list({ projectId: project.id })).events.map((e) => e.id)).toEqual(ofProject.events.map((e) => e.id));
    expect((await rejection(owner.auditLog.list({ projectId: project.id, workspaceId: workspace.id }))).code).toBe('BAD_REQUEST');
    const future = new Date(Date.parse(events[0]!.at) + 60_000).toISOString();
    expect((await owner.auditLog.list({ workspaceId: workspace.id, from: future })).events).toEqual([]);
    expect((await owner.auditLog.list({ workspaceId: workspace.id, to: events.at(-1)!.at })).events.map((e) => e.id)).toContain(events.at(-1)!.id);
    const reversed = await rejection(owner.auditLog.list({ workspaceId: workspace.id, from: future, to: events[0]!.at }));
    expect(reversed.code).toBe('BAD_REQUEST');
    expect((await rejection(owner.auditLog.list({ workspaceId: workspace.id, action: 'DROP TABLE' }))).code).toBe('BAD_REQUEST');
  });

  it('pages through the log newest first, each event once', async () => {
    const workspace = await owner.workspaces.create({ name: 'Paged' });
    for (let i = 1; i <= 4; i += 1) await owner.workspaces.update({ workspaceId: workspace.id, name: `Paged ${i}` });
    const seen: string[] = [];
    let token = '';
    do {
      const res = await fetch(`${stack.url}/workspaces/${workspace.id}/audit-log?page_size=2${token ? `&page_token=${token}` : ''}`, { headers: { cookie: ownerUser.cookie } });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { events: { id: string }[]; next_page_token: string };
      expect(page.events.length).toBeLessThanOrEqual(2);
      seen.push(...page.events.map((e) => e.id));
      token = page.next_page_token;
    } while (token);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect((await owner.auditLog.list({ workspaceId: workspace.id })).events.map((e) => e.id)).toEqual(seen);
    expect((await rejection(owner.auditLog.list({ workspaceId: workspace.id, pageToken: 'nonsense' }))).code).toBe('BAD_REQUEST');
  });

  it('shows a workspace’s log to its members only, and a stranger’s refused attempts leave nothing in it', async () => {
    const workspace = await owner.workspaces.create({ name: 'Private log' });
    const project = await owner.projects.create({ name: 'Private', environment: 'dev', workspaceId: workspace.id });
    const strangerUser = await registerUser(stack.url);
    const stranger = callerFor(deps, strangerUser.cookie);
    for (const attempt of [
      () => stranger.auditLog.list({ workspaceId: workspace.id }),
      () => stranger.auditLog.list({ workspaceId: workspace.id, forProjectId: project.id }),
      () => stranger.auditLog.list({ projectId: project.id }),
      () => stranger.projects.update({ projectId: project.id, name: 'Hijacked' }),
      () => stranger.apiKeys.create({ projectId: project.id, name: 'Planted' }),
      () => stranger.workspaces.update({ workspaceId: workspace.id, name: 'Hijacked' }),
    ]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
    const log = await owner.auditLog.list({ workspaceId: workspace.id });
    expect(log.events.map((e) => e.action).sort()).toEqual(['project.create', 'workspace.create']);
    expect(JSON.stringify(log)).not.toContain(strangerUser.identityId);
    // A project outside any workspace has its own log, for its members.
    const loose = await owner.projects.create({ name: 'Loose', environment: 'dev' });
    await owner.projects.update({ projectId: loose.id, name: 'Loose, renamed' });
    expect((await owner.auditLog.list({ projectId: loose.id })).events.map((e) => e.action)).toEqual(['project.config_patch', 'project.create']);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(stranger.auditLog.list({ projectId: loose.id }))).code);
    // The stranger's own workspace log holds their own actions only.
    const theirs = await stranger.workspaces.create({ name: 'Theirs' });
    const theirLog = await stranger.auditLog.list({ workspaceId: theirs.id });
    expect(theirLog.events.map((e) => e.actor.id)).toEqual([strangerUser.identityId]);
  });
});
