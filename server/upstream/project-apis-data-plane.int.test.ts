import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser, type TestUser } from '../test-support/users';
import { createInnerContext } from '../trpc/context';
import { toTRPCError } from '../trpc/errors';
import { projectApis } from '../trpc/project-apis';
import { UpstreamError } from './errors';

/*
 * projectApis() against the local stack's own data plane (no recording server in between): the member's
 * forwarded console cookie is the admin credential there, and a non-member is refused on both planes.
 */

let stack: TestStack;
let deps: AppDeps;
let member: TestUser;
let outsider: TestUser;
let projectId: string;
let slug: string;

const log = pino({ level: 'silent' });
const contextFor = (user: TestUser) => createInnerContext({ deps, cookie: `theme=dark; ${user.cookie}` });

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url, { projectApiUrl: `${stack.url}/project-api/{slug}` });
  [member, outsider] = await Promise.all([registerUser(stack.url, { name: 'Member' }), registerUser(stack.url, { name: 'Outsider' })]);
  const project = await callerFor(deps, member.cookie).projects.create({ name: 'Data plane', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
  await callerFor(deps, outsider.cookie).projects.create({ name: 'Elsewhere', environment: 'dev' });
});

afterAll(async () => {
  await stack?.close();
});

describe('projectApis(ctx, projectId) on the local stack', () => {
  it('reaches the project\u2019s data plane with the member\u2019s cookie and lists that tenant\u2019s identities', async () => {
    const apis = await projectApis(contextFor(member), projectId);
    expect(apis.basePath).toBe(`${stack.url}/project-api/${slug}`);
    const created = await apis.identity.createIdentity({
      createIdentityBody: { schema_id: 'default', traits: { email: `end-user-${Date.now()}@example.com` } },
    });
    expect(created.status).toBe(201);
    const listed = await apis.identity.listIdentities();
    expect(listed.status).toBe(200);
    expect(listed.data.map((i) => i.id)).toEqual([created.data.id]);
    expect((await apis.courier.listCourierMessages()).data).toEqual([]);
  });

  it('gives a non-member FORBIDDEN or NOT_FOUND through the one error pipeline', async () => {
    const refused = await failure(projectApis(contextFor(outsider), projectId));
    expect([403, 404]).toContain(refused.status);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(toTRPCError(refused, log, 'identities.list').code);
  });

  it('refuses a non-member on the data plane itself, even with the project\u2019s slug in hand', async () => {
    const apis = deps.projectApis!(slug, { cookie: outsider.cookie, signal: AbortSignal.timeout(10_000) });
    const refused = await failure(apis.identity.listIdentities());
    expect(refused.status).toBe(403);
    expect(toTRPCError(refused, log, 'identities.list')).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You are not a member of this project.',
    });
    const unsigned = await failure(deps.projectApis!(slug, { signal: AbortSignal.timeout(10_000) }).identity.listIdentities());
    expect(toTRPCError(unsigned, log, 'identities.list').code).toBe('UNAUTHORIZED');
  });
});
