import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_LIMIT, AUDIT_EXPORT_MAX_CHARS, type AuditEvent, type AuditEventDetail } from '../../shared/schemas/audit-log';
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

    const { events, nextPageToken, retentionDays } = await owner.auditLog.list({ workspaceId: workspace.id });
    expect(nextPageToken).toBeNull();
    // A workspace on Develop: its log reaches a day back.
    expect(retentionDays).toBe(1);
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

  it('keeps what each kind of object looked like before and after each write, with every secret redacted', async () => {
    const colleagueUser = await registerUser(stack.url);
    const colleague = callerFor(deps, colleagueUser.cookie);
    const workspace = await owner.workspaces.create({ name: 'Before' });
    await owner.workspaces.update({ workspaceId: workspace.id, name: 'After' });
    const project = await owner.projects.create({ name: 'Changes', environment: 'dev', workspaceId: workspace.id });
    // Config (and with it the permission rules, which live in it), with a secret in it.
    await owner.projectConfig.setAuthentication({ projectId: project.id, min_password_length: 12 });
    const smtpPassword = 'changes-smtp-password-7a2b';
    await owner.messaging.setEmailConfig({ projectId: project.id, strategy: 'smtp', smtpHost: '127.0.0.1', smtpPort: 1, smtpUsername: 'mailer', smtpPassword, fromAddress: 'no-reply@mailer.example.com', fromName: 'Mailer' });
    const opl = 'import { Namespace } from "@ory/keto-namespace-types"\n\nclass User implements Namespace {}\n';
    await owner.permissionRules.set({ projectId: project.id, opl });
    // Keys.
    const key = await owner.apiKeys.create({ projectId: project.id, name: 'Deploys' });
    await owner.apiKeys.delete({ projectId: project.id, keyId: key.id });
    const workspaceKey = await owner.apiKeys.create({ workspaceId: workspace.id, name: 'Terraform' });
    // A plan.
    await owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Production@0', interval: 'monthly', currency: 'eur' });
    expect((await owner.auditLog.list({ workspaceId: workspace.id })).retentionDays).toBe(30);
    // Invites and members (the plan has seats for them).
    const { created_invite: cancelled } = await owner.invites.create({ projectId: project.id, email: 'nobody@example.com', role: 'developer' });
    await owner.invites.cancel({ inviteId: cancelled.id });
    const { created_invite: invite } = await owner.invites.create({ workspaceId: workspace.id, email: colleagueUser.email, role: 'developer' });
    // The colleague opens the invite's link (linked in the store: the link's token goes by email).
    await stack.stack.db.query('UPDATE member_invites SET invitee_id = $1 WHERE id = $2', [colleagueUser.identityId, invite.id]);
    await colleague.invites.accept({ inviteId: invite.id });
    await owner.members.setRole({ workspaceId: workspace.id, memberId: colleagueUser.identityId, role: 'owner' });
    await owner.members.remove({ workspaceId: workspace.id, memberId: colleagueUser.identityId });
    // An OAuth2 client, with a secret.
    const clientSecret = 'changes-client-secret-4e5f6a7b8c9d';
    const client = await owner.oauth2Clients.create({ projectId: project.id, client: { client_name: 'Before app', client_secret: clientSecret } });
    await owner.oauth2Clients.patch({ projectId: project.id, clientId: client.client_id!, patch: [{ op: 'replace', path: '/client_name', value: 'After app' }] });
    const rotated = await owner.oauth2Clients.rotateSecret({ projectId: project.id, clientId: client.client_id! });
    await owner.oauth2Clients.delete({ projectId: project.id, clientId: client.client_id! });
    // A domain.
    const domain = await owner.domains.create({ projectId: project.id, hostname: 'auth.changes.example.test' });
    await owner.domains.update({ projectId: project.id, domainId: domain.id!, corsEnabled: true, corsAllowedOrigins: ['https://app.changes.example.test'] });
    await owner.domains.delete({ projectId: project.id, domainId: domain.id! });
    // A theme.
    const theme = await owner.branding.createTheme({ projectId: project.id, name: 'Night', primary_color: '#f2aa4c' });
    await owner.branding.updateTheme({ projectId: project.id, themeId: theme.id, primary_color: '#00ff88' });
    await owner.branding.deleteTheme({ projectId: project.id, themeId: theme.id });
    // A stream, with a secret (on a plan that has streams).
    const planned = await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: project.id, plan: 'enterprise' }) });
    expect(planned.status).toBe(204);
    const stream = await owner.eventStreams.create({ projectId: project.id, type: 'https', https_endpoint: 'http://127.0.0.1:9/events' });
    await owner.eventStreams.set({ projectId: project.id, streamId: stream.id, status: 'paused' });
    await owner.eventStreams.delete({ projectId: project.id, streamId: stream.id });
    // The project itself, renamed and deleted; then the workspace's key.
    await owner.projects.update({ projectId: project.id, name: 'Changes, renamed' });
    await owner.apiKeys.delete({ workspaceId: workspace.id, keyId: workspaceKey.id });

    const events: AuditEvent[] = [];
    let pageToken: string | undefined;
    do {
      const page = await owner.auditLog.list({ workspaceId: workspace.id, pageToken });
      events.push(...page.events);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    const details = await Promise.all(events.filter((e) => e.has_changes).map((e) => owner.auditLog.get({ workspaceId: workspace.id, eventId: e.id })));
    const all = (action: string) => details.filter((d) => d.action === action);
    const one = (action: string, where: (d: AuditEventDetail) => boolean = () => true) => {
      const found = all(action).filter(where);
      expect(found, action).toHaveLength(1);
      return found[0]!;
    };
    type Obj = Record<string, unknown>;
    const obj = (v: unknown) => (v ?? {}) as Obj;

    // Workspaces: a create has no before, an update both.
    expect(one('workspace.create')).toMatchObject({ before: null, after: { id: workspace.id, name: 'Before' } });
    expect(one('workspace.update')).toMatchObject({ before: { name: 'Before' }, after: { name: 'After' } });
    // …and what changed, field by field, as the page shows it.
    expect(one('workspace.update').changes).toContainEqual({ op: 'replace', path: '/name', before: 'Before', after: 'After' });
    expect(one('project_api_key.delete').changes).toContainEqual({ op: 'remove', path: '/name', before: 'Deploys' });
    // Projects and their config.
    expect(one('project.create')).toMatchObject({ before: null, after: { id: project.id, name: 'Changes' } });
    expect(one('project.config_patch', (d) => obj(d.after).name === 'Changes, renamed')).toMatchObject({ before: { name: 'Changes' } });
    const passwordPolicy = (d: AuditEventDetail) => !JSON.stringify(d.before).includes('"min_password_length":12') && JSON.stringify(d.after).includes('"min_password_length":12');
    expect(all('project.config_patch').some(passwordPolicy) || all('project.config_update').some(passwordPolicy)).toBe(true);
    const configs = [...all('project.config_patch'), ...all('project.config_update')];
    const smtp = configs.find((d) => JSON.stringify(d.after).includes('smtp://mailer:') && !JSON.stringify(d.before).includes('smtp://mailer:'));
    expect(smtp, 'the SMTP change').toBeDefined();
    expect(JSON.stringify(smtp!.after)).toContain('smtp://mailer:********@127.0.0.1:1');
    // Rules: the OPL before and after.
    // (The rules are kept as the config keeps them: the OPL, base64-encoded in a data URL.)
    const rules = one('project.config_patch', (d) => d.fields.includes('/services/permission/config/namespaces'));
    const namespacesOf = (v: unknown) => JSON.stringify(obj(obj(obj(obj(v).services).permission).config).namespaces ?? null);
    expect(namespacesOf(rules.after)).toContain(Buffer.from(opl).toString('base64'));
    expect(namespacesOf(rules.before)).not.toContain(Buffer.from(opl).toString('base64'));
    // Keys: created (without its value) and deleted.
    expect(one('project_api_key.create')).toMatchObject({ before: null, after: { id: key.id, name: 'Deploys' } });
    expect(one('project_api_key.delete')).toMatchObject({ before: { id: key.id, name: 'Deploys' }, after: null });
    expect(one('workspace_api_key.create')).toMatchObject({ before: null, after: { id: workspaceKey.id, name: 'Terraform' } });
    expect(one('workspace_api_key.delete')).toMatchObject({ before: { id: workspaceKey.id }, after: null });
    // Invites: created, cancelled.
    expect(one('project_invite.create')).toMatchObject({ before: null, after: { id: cancelled.id, status: 'pending' } });
    expect(one('invite.cancel')).toMatchObject({ before: { id: cancelled.id, status: 'pending' } });
    expect(obj(one('invite.cancel').after).status ?? null).not.toBe('pending');
    expect(one('workspace_invite.create')).toMatchObject({ before: null, after: { id: invite.id } });
    // Members: a role change and a removal.
    expect(one('workspace_member.role_change')).toMatchObject({ before: { id: colleagueUser.identityId, role: 'developer' }, after: { id: colleagueUser.identityId, role: 'owner' } });
    expect(one('workspace_member.remove')).toMatchObject({ before: { id: colleagueUser.identityId, role: 'owner' }, after: null });
    // Plans.
    const plan = [...all('workspace_subscription.create'), ...all('workspace_subscription.update')];
    expect(plan).toHaveLength(1);
    expect(JSON.stringify(plan[0]!.after)).toContain('Production@0');
    // Clients: created, renamed, secret rotated, deleted; never the secret.
    expect(one('oauth2_client.create')).toMatchObject({ before: null, after: { client_id: client.client_id, client_name: 'Before app' } });
    expect(one('oauth2_client.patch')).toMatchObject({ before: { client_name: 'Before app' }, after: { client_name: 'After app' } });
    expect(one('oauth2_client.secret_rotate')).toMatchObject({ before: { client_id: client.client_id }, after: { client_id: client.client_id } });
    expect(one('oauth2_client.delete')).toMatchObject({ before: { client_name: 'After app' }, after: null });
    // Domains.
    expect(one('custom_domain.create')).toMatchObject({ before: null, after: { id: domain.id, hostname: 'auth.changes.example.test' } });
    expect(one('project.cname.update')).toMatchObject({ before: { id: domain.id, cors_enabled: false }, after: { id: domain.id, cors_enabled: true } });
    expect(one('project.cname.delete')).toMatchObject({ before: { id: domain.id }, after: null });
    // Themes: the project's branding before and after.
    const themesOf = (v: unknown) => ((obj(v).themes ?? []) as Obj[]).map((t) => ({ id: t.id, primary_color: t.primary_color }));
    const themeWrites = details.filter((d) => JSON.stringify(d.before ?? d.after).includes('"themes"') && JSON.stringify([d.before, d.after]).includes(theme.id));
    expect(themeWrites.map((d) => [themesOf(d.before).find((t) => t.id === theme.id) ?? null, themesOf(d.after).find((t) => t.id === theme.id) ?? null])).toEqual(
      expect.arrayContaining([
        [null, { id: theme.id, primary_color: '#f2aa4c' }],
        [{ id: theme.id, primary_color: '#f2aa4c' }, { id: theme.id, primary_color: '#00ff88' }],
        [{ id: theme.id, primary_color: '#00ff88' }, null],
      ]),
    );
    // Streams: the secret never shown, the status change kept.
    expect(one('event_stream.create')).toMatchObject({ before: null, after: { id: stream.id, status: 'active' } });
    expect(one('event_stream.update')).toMatchObject({ before: { status: 'active' }, after: { status: 'paused' } });
    expect(one('event_stream.delete')).toMatchObject({ before: { id: stream.id, status: 'paused' }, after: null });

    // No secret anywhere in the log: not the SMTP password, an API key's value, the client's secrets, the stream's.
    const shown = JSON.stringify(details);
    for (const secret of [smtpPassword, key.value, workspaceKey.value, clientSecret, rotated.client_secret, stream.secret]) {
      expect(secret, 'a secret to look for').toBeTruthy();
      expect(shown).not.toContain(secret);
    }
    // The list carries no before/after: the one event holds them.
    expect(JSON.stringify(events)).not.toContain('"before"');
    // An event of another log is not found through this one.
    const other = await owner.workspaces.create({ name: 'Other' });
    expect((await rejection(owner.auditLog.get({ workspaceId: other.id, eventId: events[0]!.id }))).code).toBe('NOT_FOUND');
  });

  it('records each write of relation tuples once per request, with what it inserted and removed, to the project’s members only', async () => {
    const workspace = await owner.workspaces.create({ name: 'Tuples' });
    const project = await owner.projects.create({ name: 'Shares', environment: 'dev', workspaceId: workspace.id });
    const opl = 'import { Namespace } from "@ory/keto-namespace-types"\n\nclass User implements Namespace {}\nclass Doc implements Namespace {\n  related: { viewers: User[] }\n}\n';
    await owner.permissionRules.set({ projectId: project.id, opl });
    const viewer = (id: string) => ({ namespace: 'Doc', object: 'readme', relation: 'viewers', subject_id: id });
    // A member creates one (PUT), a key inserts two and deletes it in one PATCH, a PATCH naming no namespace of the rules is refused.
    await owner.relationships.create({ projectId: project.id, namespace: 'Doc', object: 'readme', relation: 'viewers', subject: { id: 'alice' } });
    const key = await owner.apiKeys.create({ projectId: project.id, name: 'Sync' });
    const patch = (deltas: unknown) =>
      fetch(`${stack.url}/project-api/${project.slug}/admin/relation-tuples`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key.value}`, 'content-type': 'application/json' },
        body: JSON.stringify(deltas),
      });
    const patched = await patch([
      { action: 'insert', relation_tuple: viewer('bob') },
      { action: 'insert', relation_tuple: viewer('carol') },
      { action: 'delete', relation_tuple: viewer('alice') },
    ]);
    expect(patched.status).toBe(204);
    expect((await patch([{ action: 'insert', relation_tuple: { ...viewer('dave'), namespace: 'Nope' } }])).status).toBe(404);
    // A member deletes what a query matches.
    expect(await owner.relationships.deleteMatching({ projectId: project.id, namespace: 'Doc', object: 'readme', expectedCount: 2 })).toEqual({ deleted: 2 });

    const { events } = await owner.auditLog.list({ projectId: project.id, action: 'relationship' });
    expect(events.map((e) => [e.action, e.outcome, e.status])).toEqual([
      ['relationship.delete', 'success', 204],
      ['relationship.patch', 'failure', 404],
      ['relationship.patch', 'success', 204],
      ['relationship.create', 'success', 201],
    ]);
    for (const e of events) expect(e).toMatchObject({ project_id: project.id, target_type: 'relationship', target_id: project.id });
    expect((await owner.auditLog.list({ workspaceId: workspace.id, action: 'relationship' })).events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    const [deleted, refused, patchedEvent, created] = await Promise.all(events.map((e) => owner.auditLog.get({ projectId: project.id, eventId: e.id })));
    expect(created).toMatchObject({ actor: { id: ownerUser.identityId, kind: 'user' }, before: null, after: { relation_tuples: [viewer('alice')], count: 1 } });
    expect(patchedEvent).toMatchObject({
      actor: { kind: 'project_api_key', key_id: key.id },
      before: { relation_tuples: [viewer('alice')], count: 1 },
      after: { relation_tuples: [viewer('bob'), viewer('carol')], count: 2 },
    });
    expect(refused).toMatchObject({ actor: { kind: 'project_api_key', key_id: key.id }, before: null, after: null });
    expect(deleted).toMatchObject({ actor: { id: ownerUser.identityId, kind: 'user' }, before: { relation_tuples: [viewer('bob'), viewer('carol')], count: 2 }, after: null });
    for (const d of [created, patchedEvent, deleted]) for (const state of [d!.before, d!.after]) expect(state ?? {}).not.toHaveProperty('truncated');

    // Another user sees none of it, in this project's log or their own.
    const strangerUser = await registerUser(stack.url);
    const stranger = callerFor(deps, strangerUser.cookie);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(stranger.auditLog.list({ projectId: project.id }))).code);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(stranger.auditLog.get({ projectId: project.id, eventId: patchedEvent!.id }))).code);
    const theirs = await stranger.projects.create({ name: 'Theirs', environment: 'dev' });
    expect((await stranger.auditLog.list({ projectId: theirs.id, action: 'relationship' })).events).toEqual([]);
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
    // A page with each event's before and after, on request only.
    const withChanges = await fetch(`${stack.url}/workspaces/${workspace.id}/audit-log?page_size=1&with_changes=true`, { headers: { cookie: ownerUser.cookie } });
    expect(((await withChanges.json()) as { events: unknown[] }).events).toMatchObject([{ before: { name: 'Paged 3' }, after: { name: 'Paged 4' } }]);
    expect((await fetch(`${stack.url}/workspaces/${workspace.id}/audit-log?with_changes=yes`, { headers: { cookie: ownerUser.cookie } })).status).toBe(400);
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
    // Nor one event of it, by the workspace or by the project.
    const created = log.events.find((e) => e.action === 'project.create')!;
    for (const attempt of [() => stranger.auditLog.get({ workspaceId: workspace.id, eventId: created.id }), () => stranger.auditLog.get({ projectId: project.id, eventId: created.id })]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
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
  it('exports every event the filters select, with its before and after, as CSV or JSON, to the log’s members only', async () => {
    const workspace = await owner.workspaces.create({ name: 'Exported' });
    const project = await owner.projects.create({ name: 'Export, "quoted"', environment: 'dev', workspaceId: workspace.id });
    await owner.workspaces.update({ workspaceId: workspace.id, name: 'Exported, renamed' });
    const key = await owner.apiKeys.create({ projectId: project.id, name: 'Deploys' });
    await owner.apiKeys.delete({ projectId: project.id, keyId: key.id });
    const listed = await owner.auditLog.list({ workspaceId: workspace.id, action: 'project_api_key' });
    expect(listed.events.map((e) => e.action)).toEqual(['project_api_key.delete', 'project_api_key.create']);

    // CSV: a header, one row per event of the filter, newest first, the before and after as JSON.
    const csv = await owner.auditLog.export({ workspaceId: workspace.id, action: 'project_api_key', format: 'csv' });
    expect(csv).toMatchObject({ contentType: 'text/csv; charset=utf-8', count: 2, truncated: false });
    expect(csv.filename).toMatch(new RegExp(`^audit-log-${workspace.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    expect(csv.content.endsWith('\r\n')).toBe(true);
    const rows = Papa.parse<Record<string, string>>(csv.content.trimEnd(), { header: true }).data;
    expect(rows.map((r) => [r.id, r.action, r.target_type, r.target_id, r.actor_email, r.actor_id])).toEqual([
      [listed.events[0]!.id, 'project_api_key.delete', 'project_api_key', key.id, ownerUser.email, ownerUser.identityId],
      [listed.events[1]!.id, 'project_api_key.create', 'project_api_key', key.id, ownerUser.email, ownerUser.identityId],
    ]);
    expect(rows.map((r) => r.at)).toEqual(listed.events.map((e) => e.at));
    expect(rows.every((r) => !Number.isNaN(Date.parse(r.at!)) && r.at === new Date(r.at!).toISOString())).toBe(true);
    expect(JSON.parse(rows[0]!.before!)).toMatchObject({ id: key.id, name: 'Deploys' });
    expect(JSON.parse(rows[0]!.after!)).toBeNull();
    expect(JSON.parse(rows[1]!.before!)).toBeNull();
    expect(JSON.parse(rows[1]!.after!)).toMatchObject({ id: key.id, name: 'Deploys' });
    expect(csv.content).not.toContain(key.value);

    // JSON: the events as the list answers them, each with its before and after; a quoted name survives both files.
    const json = await owner.auditLog.export({ workspaceId: workspace.id, format: 'json' });
    expect(json).toMatchObject({ contentType: 'application/json', truncated: false });
    expect(json.filename).toMatch(/\.json$/);
    const all = JSON.parse(json.content) as AuditEventDetail[];
    const everything = await owner.auditLog.list({ workspaceId: workspace.id });
    expect(all).toHaveLength(everything.events.length);
    expect(json.count).toBe(all.length);
    expect(all.map(({ before: _b, after: _a, ...event }) => event)).toEqual(everything.events);
    const renamed = all.find((e) => e.action === 'workspace.update')!;
    expect(renamed).toMatchObject({ before: { name: 'Exported' }, after: { name: 'Exported, renamed' } });
    const created = all.find((e) => e.action === 'project.create')!;
    expect(JSON.stringify(created.after)).toContain('Export, \\"quoted\\"');
    const createdRow = Papa.parse<Record<string, string>>((await owner.auditLog.export({ projectId: project.id, action: 'project.create', format: 'csv' })).content.trimEnd(), { header: true }).data;
    expect(createdRow.map((r) => r.id)).toEqual([created.id]);
    expect(JSON.parse(createdRow[0]!.after!)).toEqual(created.after);
    // Filters that select nothing give a file of no event; bad filters and formats are refused.
    const none = await owner.auditLog.export({ workspaceId: workspace.id, from: new Date(Date.parse(everything.events[0]!.at) + 60_000).toISOString(), format: 'json' });
    expect(JSON.parse(none.content)).toEqual([]);
    expect((await rejection(owner.auditLog.export({ workspaceId: workspace.id, format: 'xml' as 'csv' }))).code).toBe('BAD_REQUEST');
    expect((await rejection(owner.auditLog.export({ workspaceId: workspace.id, projectId: project.id, format: 'csv' }))).code).toBe('BAD_REQUEST');

    // A stranger exports nothing of it, by the workspace or by the project.
    const stranger = callerFor(deps, (await registerUser(stack.url)).cookie);
    for (const attempt of [
      () => stranger.auditLog.export({ workspaceId: workspace.id, format: 'csv' }),
      () => stranger.auditLog.export({ workspaceId: workspace.id, forProjectId: project.id, format: 'json' }),
      () => stranger.auditLog.export({ projectId: project.id, format: 'csv' }),
    ]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
  });

  it('exports the newest events past the page size of the local stack, each once', async () => {
    const workspace = await owner.workspaces.create({ name: 'Long' });
    for (let i = 1; i <= 120; i += 1) await owner.workspaces.update({ workspaceId: workspace.id, name: `Long ${i}` });
    const json = await owner.auditLog.export({ workspaceId: workspace.id, action: 'workspace.update', format: 'json' });
    const events = JSON.parse(json.content) as AuditEventDetail[];
    expect(json).toMatchObject({ count: 120, truncated: false });
    expect(new Set(events.map((e) => e.id)).size).toBe(120);
    expect(events[0]).toMatchObject({ before: { name: 'Long 119' }, after: { name: 'Long 120' } });
    expect(events.at(-1)).toMatchObject({ before: { name: 'Long' }, after: { name: 'Long 1' } });
  });
  it('stops an export at the newest 10,000 events, and says more matched', async () => {
    const workspace = await owner.workspaces.create({ name: 'Busy' });
    // More events than an export holds, one second apart, written as the stack records them.
    await stack.stack.db.query(
      `INSERT INTO audit_events (id, workspace_id, actor_id, actor_kind, action, target_type, target_id, outcome, status, fields, at)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, 'user', 'workspace.update', 'workspace', $1::text, 'success', 200, '["name"]'::jsonb, now() - make_interval(secs => i)
       FROM generate_series(1, $3::int) AS i`,
      [workspace.id, ownerUser.identityId, AUDIT_EXPORT_LIMIT + 5],
    );
    const csv = await owner.auditLog.export({ workspaceId: workspace.id, action: 'workspace.update', format: 'csv' });
    expect(csv).toMatchObject({ count: AUDIT_EXPORT_LIMIT, truncated: true });
    const rows = Papa.parse<Record<string, string>>(csv.content.trimEnd(), { header: true }).data;
    expect(rows).toHaveLength(AUDIT_EXPORT_LIMIT);
    expect(new Set(rows.map((r) => r.id)).size).toBe(AUDIT_EXPORT_LIMIT);
    // The newest ones: the oldest kept is 10,000 seconds old, give or take the second it took to write them.
    const ages = rows.map((r) => Date.parse(rows[0]!.at!) - Date.parse(r.at!));
    expect(ages).toEqual([...ages].sort((x, y) => x - y));
    expect(ages.at(-1)).toBe((AUDIT_EXPORT_LIMIT - 1) * 1000);
    // Exactly as many as it holds is not cut: from the oldest kept on.
    const exact = await owner.auditLog.export({ workspaceId: workspace.id, action: 'workspace.update', from: rows.at(-1)!.at!, format: 'json' });
    expect(exact).toMatchObject({ count: AUDIT_EXPORT_LIMIT, truncated: false });
    expect((JSON.parse(exact.content) as AuditEventDetail[]).at(-1)!.id).toBe(rows.at(-1)!.id);
  });
  it('stops an export before its events pass 32 Mi characters of JSON, and says more matched', async () => {
    const workspace = await owner.workspaces.create({ name: 'Heavy' });
    // Nine events of a little over 4 Mi characters each: seven fit, the eighth passes the bound.
    await stack.stack.db.query(
      `INSERT INTO audit_events (id, workspace_id, actor_id, actor_kind, action, target_type, target_id, outcome, status, fields, before, at)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, 'user', 'workspace.update', 'workspace', $1::text, 'success', 200, '["name"]'::jsonb,
              jsonb_build_object('name', repeat('x', 4 * 1024 * 1024)), now() - make_interval(secs => i)
       FROM generate_series(1, 9) AS i`,
      [workspace.id, ownerUser.identityId],
    );
    const json = await owner.auditLog.export({ workspaceId: workspace.id, action: 'workspace.update', format: 'json' });
    expect(json).toMatchObject({ count: 7, truncated: true });
    expect(json.content.length).toBeLessThan(AUDIT_EXPORT_MAX_CHARS + 64 * 1024);
  });
});
