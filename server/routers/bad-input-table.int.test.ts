import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let caller: ReturnType<typeof callerFor>;
let raw: Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
let workspace: string;
let otherWorkspace: string;
let projectId: string;
let cookie: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  cookie = (await registerUser(stack.url, {})).cookie;
  caller = callerFor(deps, cookie);
  raw = caller as unknown as typeof raw;
  workspace = (await caller.workspaces.create({ name: 'Home' })).id!;
  otherWorkspace = (await caller.workspaces.create({ name: 'Elsewhere' })).id!;
  projectId = (await caller.projects.create({ name: 'Kept', environment: 'dev', workspaceId: workspace })).id;
});

afterAll(async () => {
  await stack?.close();
});

async function badRequest(promise: Promise<unknown>, field: string): Promise<void> {
  const error = await promise.then(
    () => new Error('expected BAD_REQUEST'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe('BAD_REQUEST');
  expect((error as TRPCError).message).toContain(field);
}

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const LONG = 'x'.repeat(100_000);

/** procedure → [input, the field the message must name][] */
function table(): Record<string, [unknown, string][]> {
  const ws = workspace;
  const p = projectId;
  const hook = { flow: 'registration', timing: 'after', method: 'password', url: 'http://127.0.0.1:9/hook', httpMethod: 'POST', body: '', auth: { type: 'none' }, canInterrupt: false, ignoreResponse: false };
  return {
    'auth.deleteAccount': [[{}, 'confirmEmail'], [{ confirmEmail: 5 }, 'confirmEmail'], [{ confirmEmail: LONG }, 'confirmEmail'], [{ confirmEmail: NUL }, 'confirmEmail']],
    'auth.revokeSession': [[{}, 'sessionId'], [{ sessionId: 'current' }, 'sessionId'], [{ sessionId: LONG }, 'sessionId'], [{ sessionId: NUL }, 'sessionId']],
    'workspaces.list': [[{ pageSize: 'ten' }, 'pageSize'], [{ pageToken: LONG }, 'pageToken'], [{ pageToken: NUL }, 'pageToken'], [7, 'input']],
    'workspaces.get': [[{}, 'workspaceId'], [{ workspaceId: 1 }, 'workspaceId'], [{ workspaceId: 'ws-1' }, 'workspaceId'], [{ workspaceId: LONG }, 'workspaceId']],
    'workspaces.create': [[{}, 'name'], [{ name: 5 }, 'name'], [{ name: LONG }, 'name'], [{ name: NUL }, 'name'], [{ name: LONE }, 'name']],
    'workspaces.update': [[{ workspaceId: ws }, 'name'], [{ workspaceId: ws, name: ['x'] }, 'name'], [{ workspaceId: ws, name: NUL }, 'name'], [{ workspaceId: 'x', name: 'y' }, 'workspaceId']],
    'workspaces.listProjects': [[{}, 'workspaceId'], [{ workspaceId: null }, 'workspaceId'], [{ workspaceId: '../projects' }, 'workspaceId']],
    'workspaces.addProject': [[{ workspaceId: ws }, 'projectId'], [{ workspaceId: ws, projectId: 'p' }, 'projectId'], [{ workspaceId: ws, projectId: p, environment: 'moon' }, 'environment'], [{ workspaceId: ws, projectId: p, environment: NUL }, 'environment']],
    'projects.get': [[{}, 'projectId'], [{ projectId: 12 }, 'projectId'], [{ projectId: `${p}x` }, 'projectId']],
    'projects.create': [[{}, 'name'], [{ name: true }, 'name'], [{ name: LONG }, 'name'], [{ name: NUL }, 'name'], [{ name: 'ok', environment: 'moon' }, 'environment'], [{ name: 'ok', workspaceId: 'w' }, 'workspaceId']],
    'projects.update': [[{ projectId: p }, 'name'], [{ projectId: p, name: LONG }, 'name'], [{ projectId: p, name: LONE }, 'name'], [{ name: 'x' }, 'projectId']],
    'projects.setEnvironment': [[{ projectId: p }, 'environment'], [{ projectId: p, environment: 1 }, 'environment'], [{ projectId: 'p', environment: 'dev' }, 'projectId']],
    'projects.delete': [[{ projectId: p }, 'confirmName'], [{ projectId: p, confirmName: 3 }, 'confirmName'], [{ projectId: p, confirmName: NUL }, 'confirmName'], [{ projectId: p, confirmName: LONG }, 'project name']],
    'projects.setActive': [[{}, 'projectId'], [{ projectId: 'active' }, 'projectId']],
    'projects.members': [[{}, 'projectId'], [{ projectId: [] }, 'projectId']],
    'permissions.project': [[{ projectId: p }, 'permissions'], [{ projectId: p, permissions: 'backoffice.project.read' }, 'permissions'], [{ projectId: p, permissions: Array(6).fill('backoffice.project.read') }, 'permissions'], [{ projectId: 'x', permissions: ['backoffice.project.read'] }, 'projectId']],
    'members.list': [[{}, 'projectId'], [{ projectId: 'x' }, 'projectId'], [{ workspaceId: ws, projectId: p }, 'workspaceId']],
    'members.setRole': [[{ workspaceId: ws }, 'memberId'], [{ workspaceId: ws, memberId: ws, role: 'king' }, 'role']],
    'invites.create': [[{ workspaceId: ws }, 'email'], [{ workspaceId: ws, email: 'nope' }, 'email'], [{ workspaceId: ws, email: 'a@b.example', role: 'king' }, 'role'], [{ workspaceId: ws, email: NUL }, 'email']],
    'invites.accept': [[{}, 'inviteId'], [{ inviteId: 'x' }, 'inviteId']],
    'invites.getPublic': [[{ inviteId: LONG, token: '00000000-0000-4000-8000-000000000000' }, 'inviteId'], [{ inviteId: p }, 'token']],
    'apiKeys.create': [[{ projectId: p }, 'name'], [{ projectId: p, name: LONG }, 'name'], [{ projectId: p, name: 'k', expiresAt: 'tomorrow' }, 'expiresAt']],
    'apiKeys.delete': [[{ projectId: p, keyId: 'k' }, 'keyId']],
    'domains.list': [[{}, 'could not fetch custom domains: projectId is required'], [{ projectId: 'p' }, 'projectId']],
    'domains.create': [[{ projectId: p }, 'hostname'], [{ projectId: p, hostname: 'no-dot' }, 'hostname'], [{ projectId: p, hostname: `${'a'.repeat(64)}.example.com` }, 'hostname'], [{ projectId: p, hostname: 'a_b.example.com' }, 'hostname'], [{ projectId: p, hostname: '-a.example.com' }, 'hostname'], [{ projectId: p, hostname: 'ok.example.com', corsAllowedOrigins: ['ftp://x.example.com'] }, 'corsAllowedOrigins']],
    'domains.update': [[{ projectId: p, domainId: 'd' }, 'domainId'], [{ projectId: p, domainId: p, cookieDomain: 'x' }, 'cookieDomain']],
    'domains.delete': [[{ projectId: p }, 'domainId']],
    'branding.get': [[{}, 'projectId'], [{ projectId: 'p' }, 'projectId']],
    'branding.createTheme': [[{ projectId: p }, 'name'], [{ projectId: p, name: LONG }, 'name'], [{ projectId: p, name: 'x', primary_color: 'red' }, 'primary_color'], [{ projectId: p, name: 'x', logo_url: 'http://cdn.example.com/a.png' }, 'logo_url'], [{ projectId: p, name: 'x', favicon_url: 'data:text/html;base64,PGI+' }, 'favicon_url']],
    'branding.updateTheme': [[{ projectId: p, themeId: 't' }, 'themeId'], [{ projectId: p, themeId: p, background_canvas_color: '#12' }, 'background_canvas_color'], [{ projectId: p, themeId: p, name: '' }, 'name']],
    'branding.deleteTheme': [[{ projectId: p }, 'themeId']],
    'branding.activate': [[{ projectId: p, themeId: NUL }, 'themeId']],
    'branding.deactivate': [[{}, 'projectId']],
    'eventStreams.create': [
      [{ projectId: p, type: 'https' }, 'https_endpoint'],
      [{ projectId: p, type: 'https', https_endpoint: 'ftp://hooks.example.com' }, 'https_endpoint'],
      [{ projectId: p, type: 'sns', topic_arn: 'arn:aws:sns:nowhere', role_arn: 'arn:aws:iam::123456789012:role/ory' }, 'topic_arn'],
      [{ projectId: p, type: 'kafka' }, 'type'],
    ],
    'eventStreams.set': [[{ projectId: p, streamId: p, status: 'sleeping' }, 'status'], [{ projectId: p, streamId: 's' }, 'streamId']],
    'eventStreams.replay': [[{ projectId: p, streamId: p }, 'deliveryId']],
    'actions.get': [[{}, 'projectId'], [{ projectId: 'p' }, 'projectId']],
    'actions.set': [
      [{ projectId: p }, 'hooks'],
      [{ projectId: p, hooks: [{ ...hook, url: 'ftp://hooks.example.com' }] }, 'url'],
      [{ projectId: p, hooks: [{ ...hook, flow: 'logout' }] }, 'flow'],
      [{ projectId: p, hooks: [{ ...hook, timing: 'before', method: 'password' }] }, 'method'],
      [{ projectId: p, hooks: [{ ...hook, canInterrupt: true, ignoreResponse: true }] }, 'ignoreResponse'],
      [{ projectId: p, hooks: [{ ...hook, auth: { type: 'basic_auth', user: '' } }] }, 'user'],
      [{ projectId: p, hooks: [{ ...hook, auth: { type: 'bearer' } }] }, 'auth'],
      [{ projectId: p, hooks: [{ ...hook, body: 'function(ctx) ctx' }] }, 'body'],
      [{ projectId: p, hooks: [{ ...hook, url: NUL }] }, 'url'],
      [{ projectId: p, hooks: Array(51).fill(hook) }, 'hooks'],
    ],
    'actions.log': [[{ projectId: p, pageToken: LONG }, 'pageToken']],
    'quota.get': [[{ projectId: p, feature: 'moon' }, 'feature'], [{ workspaceId: ws }, 'feature']],
    'projectConfig.setAuthentication': [[{ projectId: p, min_password_length: 5 }, 'min_password_length'], [{ projectId: p, password_enabled: 'yes' }, 'password_enabled']],
    'messaging.setSmsConfig': [
      [{ projectId: p, url: 'ftp://sms.example.com' }, 'URL'],
      [{ projectId: p, authType: 'digest' }, 'authType'],
      [{ projectId: p, apiKeyName: 'X Key' }, 'apiKeyName'],
      [{ projectId: p, basicUser: 'a:b' }, 'basicUser'],
      [{ projectId: p, secret: NUL }, 'secret'],
      [{ projectId: p, secret: LONG }, 'secret'],
      [{ projectId: p, enabled: true, url: '' }, 'Enter the URL'],
    ],
    'projectConfig.setRecovery': [[{ projectId: p, use: 'pigeon' }, 'use'], [{ projectId: p, lifespan: 'a while' }, 'lifespan']],
    'projectConfig.setBrowserRedirects': [[{ projectId: p, allowed_return_urls: ['ftp://files.example.com'] }, 'allowed_return_urls'], [{ projectId: p, default_browser_return_url: 'https://localhost/' }, 'default_browser_return_url']],
    'projectConfig.setUi': [[{ projectId: p, login: 'javascript:alert(1)' }, 'login']],
    'permissions.workspace': [[{ workspaceId: ws }, 'permissions'], [{ workspaceId: ws, permissions: ['backoffice.project.read'] }, 'permissions'], [{ workspaceId: 'x', permissions: ['backoffice.workspace.read'] }, 'workspaceId']],
    'relationships.list': [[{ projectId: p, subjectId: 'a', subjectSet: { namespace: 'G', object: 'g', relation: 'm' } }, 'subjectSet'], [{ projectId: p, namespace: NUL }, 'namespace'], [{ projectId: p, object: LONG }, 'object'], [{ projectId: p, pageToken: LONG }, 'pageToken']],
    'relationships.create': [[{ projectId: p, namespace: 'File', object: 'o', relation: 'r' }, 'subject'], [{ projectId: p, namespace: 'File', object: NUL, relation: 'r', subject: { id: 'a' } }, 'object'], [{ projectId: p, namespace: ' ', object: 'o', relation: 'r', subject: { id: 'a' } }, 'namespace'], [{ projectId: p, namespace: 'File', object: 'o', relation: 'r', subject: { set: { namespace: 'G', object: LONE, relation: '' } } }, 'subject']],
    'relationships.delete': [[{ projectId: p, namespace: 'File', object: 'o', relation: LONG, subject: { id: 'a' } }, 'relation'], [{ projectId: 'x', namespace: 'File', object: 'o', relation: 'r', subject: { id: 'a' } }, 'projectId']],
    'relationships.count': [[{ projectId: p }, 'namespace'], [{ projectId: p, namespace: 'File', subjectId: NUL }, 'subjectId']],
    'relationships.deleteMatching': [[{ projectId: p, namespace: 'File' }, 'expectedCount'], [{ projectId: p, namespace: 'File', expectedCount: 0 }, 'expectedCount'], [{ projectId: p, namespace: 'File', expectedCount: 1.5 }, 'expectedCount'], [{ projectId: p, expectedCount: 1 }, 'namespace']],
    'relationships.namespaces': [[{}, 'projectId'], [{ projectId: 'x' }, 'projectId']],
    'permissionRules.get': [[{}, 'projectId']],
    'projectHistory.exportBundle': [[{}, 'projectId'], [{ projectId: p, includeIdentities: 'yes' }, 'includeIdentities']],
    'projectHistory.importBundle': (() => {
      const file = { format: 'ory-console-project', version: 1, name: 'Kept', services: {}, identity_schemas: [], themes: [], oauth2_clients: [], relation_tuples: [] };
      const rev = '00000000-0000-4000-8000-000000000001';
      const tuple = { namespace: 'File', object: 'o', relation: 'r', subject_id: 'a' };
      return [
        [{ projectId: p, file }, 'currentRevisionId'],
        [{ projectId: p, currentRevisionId: rev, file: { ...file, format: 'ory-console-project-config' } }, 'file.format'],
        [{ projectId: p, currentRevisionId: rev, file: { ...file, relation_tuples: Array.from({ length: 5001 }, () => tuple) } }, 'file.relation_tuples'],
        [{ projectId: p, currentRevisionId: rev, file: { ...file, relation_tuples: [{ namespace: 'File', object: 'o', relation: 'r' }] } }, 'file.relation_tuples.0'],
        [{ projectId: p, currentRevisionId: rev, file: { ...file, identities: [{ schema_id: 'default', traits: 'x' }] } }, 'file.identities.0.traits'],
        [{ projectId: p, currentRevisionId: rev, file: { ...file, themes: [{ name: 'Night', colors: { primary_color: 'red' }, active: true }] } }, 'file.themes.0.colors'],
        [{ projectId: p, currentRevisionId: rev, file: { ...file, themes: [{ name: NUL, colors: {}, active: true }] } }, 'file.themes.0.name'],
        [{ projectId: p, currentRevisionId: rev, file: { ...file, oauth2_clients: [{ client_id: LONG }] } }, 'file.oauth2_clients.0.client_id'],
      ] as [unknown, string][];
    })(),
    'permissionRules.validate': [[{ projectId: p }, 'opl'], [{ projectId: p, opl: 'x'.repeat(200_001) }, 'opl'], [{ projectId: p, opl: NUL }, 'opl']],
    'permissionRules.set': [[{ projectId: p, opl: 7 }, 'opl'], [{ projectId: p, opl: 'class A implements Namespace {}', revisionId: 'r1' }, 'revisionId']],
    'permissionRules.setFeatureFlags': [[{ projectId: p, strict_mode: 'yes' }, 'strict_mode'], [{ projectId: p, expand_rewrites: 1 }, 'expand_rewrites'], [{ projectId: p, strict_mode: true, revisionId: 'r1' }, 'revisionId']],
    'oauth2Config.setStrategies': [[{ projectId: p, scope: 'fuzzy' }, 'scope'], [{ projectId: p, access_token: 'paper' }, 'access_token']],
    'oauth2Config.setConfigure': [[{ projectId: p, dynamic_client_registration: 'on' }, 'dynamic_client_registration']],
    'permissions.check': [[{ projectId: p, namespace: 'File', object: 'o', relation: 'view' }, 'subject'], [{ projectId: p, namespace: 'File', object: 'o', relation: 'view', subject: { id: 'a' }, maxDepth: 6 }, 'maxDepth'], [{ projectId: p, namespace: 'File', object: 'o', relation: 'view', subject: { id: 'a' }, maxDepth: 0 }, 'maxDepth']],
    'auditLog.export': [[{ workspaceId: ws }, 'format'], [{ workspaceId: ws, format: 'xml' }, 'format'], [{ workspaceId: ws, format: 'csv', action: 'DROP TABLE' }, 'action'], [{ format: 'csv' }, 'projectId']],
    'permissions.expand': [[{ projectId: p, namespace: 'File', object: 'o' }, 'relation'], [{ projectId: p, namespace: 'File', object: 'o', relation: 'view', maxDepth: 1.5 }, 'maxDepth'], [{ projectId: p, namespace: 'File', object: LONG, relation: 'view' }, 'object']],
  };
}

describe('every procedure with input', () => {
  it('answers BAD_REQUEST naming the field for missing fields, wrong types, non-UUID ids, oversized or unstorable text', async () => {
    for (const [name, cases] of Object.entries(table())) {
      const [group, procedure] = name.split('.') as [string, string];
      for (const [input, field] of cases) {
        await badRequest(raw[group]![procedure]!(input), field).catch((error: unknown) => {
          throw new Error(`${name}(${JSON.stringify(input).slice(0, 80)}): ${(error as Error).message}`);
        });
      }
    }
  });

  it('wrote nothing on the way', async () => {
    expect((await caller.projects.list()).map((p) => p.name)).toEqual(['Kept']);
    expect((await caller.workspaces.list()).workspaces.map((w) => w.name).sort()).toEqual(['Elsewhere', 'Home']);
    expect(await caller.projects.get({ projectId })).toMatchObject({ workspace_id: workspace, environment: 'dev', current_revision: { name: 'Kept' } });
  });
});

describe('a failed write leaves no half-written state', () => {
  it('a project create refused upstream leaves no project', async () => {
    const missing = '00000000-0000-4000-8000-000000000001';
    const refused = await caller.projects.create({ name: 'Orphan', environment: 'dev', workspaceId: missing }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((refused as TRPCError).code);
    const upstreamRefused = await deps.backoffice
      .createNormalizedProject({ cookie }, { name: 'Orphan', environment: 'dev', home_region: 'mars' as never })
      .catch((e: unknown) => e);
    expect(upstreamRefused).toMatchObject({ name: 'UpstreamError', status: 400 });
    expect((await caller.projects.list()).map((p) => p.name)).toEqual(['Kept']);
  });

  it('workspaces.addProject with a bad body leaves the project where it was', async () => {
    await badRequest(raw.workspaces!.addProject!({ workspaceId: otherWorkspace, projectId, environment: 'moon' }), 'environment');
    expect(await caller.projects.get({ projectId })).toMatchObject({ workspace_id: workspace, environment: 'dev' });
    expect(await caller.workspaces.listProjects({ workspaceId: otherWorkspace })).toEqual([]);
  });
});
