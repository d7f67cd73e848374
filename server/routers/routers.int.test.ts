import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { startRecordingProxy, type RecordingProxy } from '../test-support/recording-proxy';
import { registerUser } from '../test-support/users';
import { sessionCookieHeader } from '../upstream/cookies';

let stack: TestStack;
let proxy: RecordingProxy;
let deps: AppDeps;
let user: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  stack = await startTestStack();
  proxy = await startRecordingProxy(stack.url);
  deps = testDeps(proxy.url);
  user = await registerUser(stack.url, { name: 'Ada Owner' });
});

afterAll(async () => {
  await proxy?.close();
  await stack?.close();
});

const caller = () => callerFor(deps, `theme=dark; ${user.cookie}; csrf_token_x=abc`);


describe('auth.session', () => {
  it('answers the session of the forwarded cookie', async () => {
    const { session } = await caller().auth.session();
    expect(session?.identity?.id).toBe(user.identityId);
    expect(session?.identity?.traits.email).toBe(user.email);
  });

  it('answers null when signed out or with a bogus cookie', async () => {
    expect(await callerFor(deps).auth.session()).toEqual({ session: null });
    expect(await callerFor(deps, 'ory_kratos_session=not-a-session').auth.session()).toEqual({ session: null });
  });

  it('forwards only the session cookie to the upstream, and only to the configured origin', async () => {
    proxy.requests.length = 0;
    await caller().projects.list();
    expect(proxy.requests.length).toBeGreaterThan(0);
    for (const req of proxy.requests) {
      expect(req.cookie).toBe(sessionCookieHeader(user.cookie));
      expect(req.cookie).not.toContain('theme=');
      expect(req.cookie).not.toContain('csrf_token');
      expect(req.headers['x-request-id']).toBeTruthy();
    }
  });
});

describe('per-instance caches', () => {
  it('looks the session up once for many calls, and project access once per project', async () => {
    const fresh = testDeps(proxy.url);
    const own = callerFor(fresh, user.cookie);
    const projectId = (await own.projects.create({ name: 'Cached', environment: 'dev' })).id;
    proxy.requests.length = 0;
    await Promise.all([own.projects.list(), own.workspaces.list(), own.auth.session()]);
    await own.projects.get({ projectId });
    await own.projects.members({ projectId });
    await own.permissions.project({ projectId, permissions: ['backoffice.project.read'] });
    const count = (prefix: string) => proxy.requests.filter((r) => r.path.startsWith(prefix)).length;
    expect(count('/sessions/whoami')).toBe(0);
    expect(count(`/projects/${projectId}/access`)).toBe(1);
    const other = callerFor(testDeps(proxy.url), user.cookie);
    await Promise.all([other.projects.list(), other.workspaces.list(), other.auth.session()]);
    expect(count('/sessions/whoami')).toBe(1);
  });

  it('asks once for what the calls of one batch ask at the same moment: the permission and the project slug', async () => {
    const own = callerFor(testDeps(proxy.url), user.cookie);
    const projectId = (await own.projects.create({ name: 'Batched', environment: 'dev' })).id;
    const fresh = callerFor(testDeps(proxy.url), user.cookie);
    proxy.requests.length = 0;
    const [list, schemas] = await Promise.all([fresh.identities.list({ projectId }), fresh.identities.schemas({ projectId }), fresh.sessions.list({ projectId })]);
    expect(list.identities).toEqual([]);
    expect(schemas.length).toBeGreaterThan(0);
    const count = (method: string, path: string) => proxy.requests.filter((r) => r.method === method && r.path === path).length;
    expect(count('POST', `/projects/${projectId}/access`)).toBe(1);
    expect(count('GET', `/projects/${projectId}`)).toBe(1);
    expect(proxy.requests.some((r) => r.path.startsWith('/project-api/'))).toBe(true);
  });

  it('still refuses a caller who may not read the project, though the slug look-up ran beside the check', async () => {
    const own = callerFor(testDeps(proxy.url), user.cookie);
    const projectId = (await own.projects.create({ name: 'Not yours', environment: 'dev' })).id;
    const stranger = await registerUser(stack.url, { name: 'Eve Stranger' });
    const strangerDeps = testDeps(proxy.url);
    const refused = await rejection(callerFor(strangerDeps, stranger.cookie).identities.list({ projectId }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toBe(MESSAGES.projectAccessFailure);
    // The dropped look-up settles on its own time; the project's slug is never kept for this caller.
    await vi.waitFor(() => expect(strangerDeps.caches.inFlight.size).toBe(0));
    expect(strangerDeps.caches.slugs.size).toBe(0);
  });
});

describe('workspaces and projects', () => {
  let workspaceId: string;
  let projectId: string;

  it('creates, lists, gets and renames a workspace', async () => {
    const created = await caller().workspaces.create({ name: '  Team A  ' });
    expect(created.name).toBe('Team A');
    workspaceId = created.id!;
    const list = await caller().workspaces.list();
    expect(list.workspaces.map((w) => w.id)).toContain(workspaceId);
    expect(list.has_next_page).toBe(false);
    expect(await caller().workspaces.get({ workspaceId })).toMatchObject({ id: workspaceId, name: 'Team A' });
    const renamed = await caller().workspaces.update({ workspaceId, name: 'Team Alpha' });
    expect(renamed.name).toBe('Team Alpha');
    expect((await caller().workspaces.get({ workspaceId })).name).toBe('Team Alpha');
  });

  it('creates a project in the workspace and lists it', async () => {
    // A production project needs a paid plan (spec §9: none on Develop).
    const refused = await rejection(caller().projects.create({ name: 'Shop', environment: 'prod', workspaceId }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toMatch(/Develop plan does not include production projects/);
    await caller().billing.changePlan({ workspaceId, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
    const project = await caller().projects.create({ name: 'Shop', environment: 'prod', workspaceId });
    projectId = project.id;
    expect(project).toMatchObject({ environment: 'prod', workspace_id: workspaceId, current_revision: { name: 'Shop' } });
    expect((await caller().projects.list()).map((p) => p.id)).toContain(projectId);
    expect((await caller().workspaces.listProjects({ workspaceId })).map((p) => p.id)).toEqual([projectId]);
    expect(await caller().projects.get({ projectId })).toMatchObject({ id: projectId, current_revision: { name: 'Shop' } });
  });

  it('renames a project keeping unknown revision fields', async () => {
    const before = await deps.backoffice.getNormalizedProject({ cookie: user.cookie }, projectId);
    await deps.backoffice.patchNormalizedProjectRevision({ cookie: user.cookie }, projectId, before.current_revision.id!, [
      { op: 'add', path: '/kratos_custom_future_field', value: 'keep me' },
    ]);
    const renamed = await caller().projects.update({ projectId, name: 'Shop EU' });
    expect(renamed.current_revision.name).toBe('Shop EU');
    expect(renamed.current_revision.kratos_custom_future_field).toBe('keep me');
    expect((await caller().projects.get({ projectId })).current_revision.kratos_custom_future_field).toBe('keep me');
  });

  it('renames on the revision the edit started from, and refuses a stale one with CONFLICT', async () => {
    const loaded = await caller().projects.get({ projectId });
    const startedFrom = loaded.current_revision.id as string;
    const renamed = await caller().projects.update({ projectId, name: 'Shop EU 2', revisionId: startedFrom });
    expect(renamed.current_revision.name).toBe('Shop EU 2');
    expect(renamed.current_revision.kratos_custom_future_field).toBe('keep me');
    await expect(caller().projects.update({ projectId, name: 'Shop stale', revisionId: startedFrom })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await caller().projects.get({ projectId })).current_revision.name).toBe('Shop EU 2');
    await caller().projects.update({ projectId, name: 'Shop EU' });
  });

  it('changes the environment', async () => {
    expect((await caller().projects.setEnvironment({ projectId, environment: 'stage' })).environment).toBe('stage');
  });

  it('lists members with the owner', async () => {
    const members = await caller().projects.members({ projectId });
    expect(members.map((m) => m.email)).toContain(user.email);
  });

  it('answers permissions for project and workspace', async () => {
    expect(
      await caller().permissions.project({ projectId, permissions: ['backoffice.project.read', 'backoffice.project.delete'] }),
    ).toEqual({ 'backoffice.project.read': true, 'backoffice.project.delete': true });
    expect(await caller().permissions.workspace({ workspaceId, permissions: ['backoffice.workspace.write'] })).toEqual({
      'backoffice.workspace.write': true,
    });
  });

  it('sets and gets the active project', async () => {
    expect(await caller().projects.setActive({ projectId })).toEqual({ projectId });
    expect(await caller().projects.getActive()).toEqual({ projectId });
  });

  it('moves a project without workspace into a workspace', async () => {
    const loose = await caller().projects.create({ name: 'Loose', environment: 'dev' });
    expect(loose.workspace_id).toBeNull();
    const moved = await caller().workspaces.addProject({ workspaceId, projectId: loose.id });
    expect(moved).toMatchObject({ id: loose.id, workspace_id: workspaceId });
    expect((await caller().workspaces.listProjects({ workspaceId })).map((p) => p.id)).toContain(loose.id);
  });

  it('refuses to delete when the typed name differs, then deletes', async () => {
    const error = await rejection(caller().projects.delete({ projectId, confirmName: 'Shop' }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(/project name/);
    expect(await caller().projects.delete({ projectId, confirmName: 'Shop EU' })).toEqual({ ok: true });
    expect((await caller().projects.list()).map((p) => p.id)).not.toContain(projectId);
    const gone = await rejection(caller().projects.get({ projectId }));
    expect(['NOT_FOUND', 'FORBIDDEN']).toContain(gone.code);
  });
});

describe('active project', () => {
  it('answers NOT_FOUND with the spec text when none is set', async () => {
    const fresh = await registerUser(stack.url, {});
    const error = await rejection(callerFor(deps, fresh.cookie).projects.getActive());
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe(MESSAGES.noActiveProject);
  });
});

describe('signed out', () => {
  it('answers UNAUTHORIZED on every authed procedure', async () => {
    const anonymous = callerFor(deps);
    const id = '00000000-0000-4000-8000-000000000000';
    // Each asked only when the one before has answered: a refusal started early would be a rejection
    // nobody handles yet.
    const calls: (() => Promise<unknown>)[] = [
      () => anonymous.workspaces.list(),
      () => anonymous.workspaces.get({ workspaceId: id }),
      () => anonymous.workspaces.create({ name: 'x' }),
      () => anonymous.projects.list(),
      () => anonymous.projects.get({ projectId: id }),
      () => anonymous.projects.getActive(),
      () => anonymous.permissions.project({ projectId: id, permissions: ['backoffice.project.read'] }),
    ];
    for (const call of calls) expect((await rejection(call())).code).toBe('UNAUTHORIZED');
  });
});

describe('system.version', () => {
  it('names the console build from its package to a signed-in user, and to no one signed out', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await callerFor(deps, user.cookie).system.version()).toEqual({ version: pkg.version });
    expect((await rejection(callerFor(deps, undefined).system.version())).code).toBe('UNAUTHORIZED');
  });
});
