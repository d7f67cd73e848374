import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { startRecordingProxy, type RecordingProxy } from '../test-support/recording-proxy';
import { startRecordingServer, type RecordingServer } from '../test-support/recording-server';
import { registerUser, type TestUser } from '../test-support/users';
import { createInnerContext } from '../trpc/context';
import { GENERIC_UPSTREAM_MESSAGE, toTRPCError } from '../trpc/errors';
import { projectApis } from '../trpc/project-apis';
import { sessionCookieHeader } from './cookies';
import { UpstreamError } from './errors';

let stack: TestStack;
let controlPlane: RecordingProxy;
let dataPlane: RecordingServer;
let elsewhere: RecordingServer;
let deps: AppDeps;
let owner: TestUser;
let outsider: TestUser;
let projectId: string;
let slug: string;

const OTHER_COOKIES = 'theme=dark; csrf_token_x=abc';
const log = pino({ level: 'silent' });

beforeAll(async () => {
  stack = await startTestStack();
  controlPlane = await startRecordingProxy(stack.url);
  dataPlane = await startRecordingServer();
  elsewhere = await startRecordingServer();
  deps = testDeps(controlPlane.url, { projectApiUrl: `${dataPlane.url}/project-api/{slug}`, upstreamTimeoutMs: 1_000 });
  [owner, outsider] = await Promise.all([registerUser(stack.url, { name: 'Owner' }), registerUser(stack.url, { name: 'Outsider' })]);
  const project = await callerFor(deps, owner.cookie).projects.create({ name: 'Data plane', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
});

afterAll(async () => {
  await Promise.all([dataPlane?.close(), elsewhere?.close(), controlPlane?.close()]);
  await stack?.close();
});

beforeEach(() => {
  dataPlane.requests.length = 0;
  elsewhere.requests.length = 0;
  controlPlane.requests.length = 0;
  dataPlane.answer = () => ({ status: 200, body: [] });
});

const contextFor = (user: TestUser, signal?: AbortSignal) => {
  const ctx = createInnerContext({ deps, cookie: `${OTHER_COOKIES}; ${user.cookie}` });
  if (signal) ctx.call.signal = signal;
  return ctx;
};

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('projectApis(ctx, projectId)', () => {
  it('calls each data-plane API at the URL built from the slug, with only the session cookie', async () => {
    expect(slug).toMatch(/^[a-z0-9-]+$/);
    const apis = await projectApis(contextFor(owner), projectId);
    expect(apis.basePath).toBe(`${dataPlane.url}/project-api/${slug}`);
    dataPlane.answer = (req) => ({ status: 200, body: req.path.includes('/check') ? { allowed: true } : req.path.startsWith(`/project-api/${slug}/relation-tuples`) ? { relation_tuples: [] } : [] });
    await apis.identity.listIdentities();
    await apis.oauth2.listOAuth2Clients();
    await apis.relationship.getRelationships({ namespace: 'files' });
    await apis.permission.checkPermission({ namespace: 'files', object: 'f1', relation: 'view', subjectId: 'u1' });
    await apis.courier.listCourierMessages();
    expect(dataPlane.requests.map((r) => r.path.split('?')[0])).toEqual([
      `/project-api/${slug}/admin/identities`,
      `/project-api/${slug}/admin/clients`,
      `/project-api/${slug}/relation-tuples`,
      `/project-api/${slug}/relation-tuples/check/openapi`,
      `/project-api/${slug}/admin/courier/messages`,
    ]);
    for (const req of dataPlane.requests) {
      expect(req.cookie).toBe(sessionCookieHeader(owner.cookie));
      expect(req.headers['x-request-id']).toBeTruthy();
    }
  });

  it('looks the slug up on the control plane once per session for a few seconds', async () => {
    const ctx = contextFor(owner);
    await projectApis(ctx, projectId);
    await projectApis(contextFor(owner), projectId);
    expect(controlPlane.requests.filter((r) => r.path === `/projects/${projectId}`)).toHaveLength(0);
    deps.caches.slugs.clear();
    await projectApis(ctx, projectId);
    expect(controlPlane.requests.filter((r) => r.path === `/projects/${projectId}`)).toHaveLength(1);
  });

  it('gives a caller who cannot read the project no client, and sends the data plane nothing', async () => {
    const error = await failure(projectApis(contextFor(outsider), projectId));
    expect([403, 404]).toContain(error.status);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(toTRPCError(error, log, 'p').code);
    expect(dataPlane.requests).toEqual([]);
  });

  it('maps data-plane answers to UpstreamError and tRPC codes: 4xx keep the reason, 5xx do not', async () => {
    const apis = await projectApis(contextFor(owner), projectId);
    dataPlane.answer = () => ({ status: 404, body: { error: { code: 404, status: 'Not Found', reason: 'Unable to locate the identity', message: 'not found', id: 'not_found' } } });
    const missing = await failure(apis.identity.getIdentity({ id: '00000000-0000-4000-8000-000000000000' }));
    expect(missing).toMatchObject({ status: 404, reason: 'Unable to locate the identity', errorId: 'not_found', upstream: 'project-api' });
    expect(toTRPCError(missing, log, 'p')).toMatchObject({ code: 'NOT_FOUND', message: 'Unable to locate the identity' });
    dataPlane.answer = () => ({ status: 500, body: { error: { code: 500, message: 'SQL error: secret detail' } } });
    const broken = await failure(apis.oauth2.listOAuth2Clients());
    expect(toTRPCError(broken, log, 'p')).toMatchObject({ code: 'BAD_GATEWAY', message: GENERIC_UPSTREAM_MESSAGE });
  });

  it('answers the spec text, and sends nothing, when a call lacks a required parameter', async () => {
    const apis = await projectApis(contextFor(owner), projectId);
    const error = await apis.identity.getIdentity({ id: undefined as unknown as string }).catch((e: unknown) => e);
    expect(toTRPCError(error, log, 'p')).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Required parameter id was null or undefined when calling getIdentity',
    });
    expect(dataPlane.requests).toEqual([]);
  });

  it('never follows a redirect, so the cookie cannot leave the data plane', async () => {
    const apis = await projectApis(contextFor(owner), projectId);
    dataPlane.answer = () => ({ status: 302, headers: { location: `${elsewhere.url}/steal` } });
    const error = await failure(apis.identity.listIdentities());
    expect(toTRPCError(error, log, 'p').code).toBe('BAD_GATEWAY');
    expect(elsewhere.requests).toEqual([]);
  });

  it('ends calls at the request deadline, or at the configured timeout without one', async () => {
    dataPlane.answer = () => 'hang';
    const started = Date.now();
    const apis = await projectApis(contextFor(owner, AbortSignal.timeout(200)), projectId);
    const timedOut = await failure(apis.courier.listCourierMessages());
    expect(timedOut.kind).toBe('timeout');
    expect(toTRPCError(timedOut, log, 'p').code).toBe('GATEWAY_TIMEOUT');
    const fallback = await failure((await projectApis(contextFor(owner), projectId)).identity.listIdentities());
    expect(fallback.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answers BAD_GATEWAY when no data-plane URL is configured', async () => {
    const unconfigured = testDeps(controlPlane.url, { projectApiUrl: undefined });
    const error = await failure(projectApis(createInnerContext({ deps: unconfigured, cookie: owner.cookie }), projectId));
    expect(toTRPCError(error, log, 'p').code).toBe('BAD_GATEWAY');
  });
});

describe('dataPlaneProcedure(permission)', () => {
  it('hands a member’s procedure the project’s APIs, and refuses an outsider before anything reaches the data plane', async () => {
    const listed = await callerFor(deps, owner.cookie).sessions.list({ projectId });
    expect(listed.sessions).toEqual([]);
    expect(dataPlane.requests.map((r) => r.path.split('?')[0])).toEqual([`/project-api/${slug}/admin/sessions`]);
    expect(dataPlane.requests[0]!.cookie).toBe(sessionCookieHeader(owner.cookie));
    dataPlane.requests.length = 0;
    const refused = await callerFor(deps, outsider.cookie)
      .sessions.list({ projectId })
      .catch((e: unknown) => e);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((refused as { code?: string }).code);
    expect(dataPlane.requests).toEqual([]);
  });
});

describe('the slug cache', () => {
  it('is primed when the caller reads the project, so the next data-plane page asks the control plane nothing', async () => {
    const caller = callerFor(deps, owner.cookie);
    deps.caches.slugs.clear();
    expect((await caller.projects.get({ projectId })).slug).toBe(slug);
    controlPlane.requests.length = 0;
    await caller.sessions.list({ projectId });
    // The permission was answered (and cached) for projects.get too; what is left to ask is the project's slug.
    expect(controlPlane.requests.filter((r) => r.path.startsWith(`/projects/${projectId}`) && r.method === 'GET')).toEqual([]);
    expect(dataPlane.requests.map((r) => r.path.split('?')[0])).toEqual([`/project-api/${slug}/admin/sessions`]);
  });

  it('is primed for the caller alone: another session still looks the slug up with its own cookie', async () => {
    deps.caches.slugs.clear();
    await callerFor(deps, owner.cookie).projects.get({ projectId });
    controlPlane.requests.length = 0;
    expect(await callerFor(deps, outsider.cookie).sessions.list({ projectId }).catch((e: unknown) => (e as { code?: string }).code)).toMatch(/FORBIDDEN|NOT_FOUND/);
    expect(dataPlane.requests).toEqual([]);
  });
});
