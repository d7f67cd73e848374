import { randomBytes } from 'node:crypto';
import { Configuration, FrontendApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let outsider: Caller;
let project: { id: string; slug: string };

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Metrics Owner' }), registerUser(stack.url, { name: 'Metrics Outsider' })]);
  owner = callerFor(deps, a.cookie);
  outsider = callerFor(deps, b.cookie);
  project = await owner.projects.create({ name: 'Activity', environment: 'dev' });
});

afterAll(async () => {
  await stack?.close();
});

const PASSWORD = 'a-Long-and-unusual-passw0rd';

describe('metrics through the BFF', () => {
  it('shows N sign-ins as N in the series, by method, and in the event list; another user is refused', async () => {
    const api = new FrontendApi(new Configuration({ basePath: `${stack.url}/project-api/${project.slug}` }));
    const email = `m-${randomBytes(4).toString('hex')}@example.com`;
    const reg = await api.createNativeRegistrationFlow();
    await api.updateRegistrationFlow({ flow: reg.data.id, updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email, name: 'M' } } });
    const N = 4;
    for (let i = 0; i < N; i++) {
      const flow = await api.createNativeLoginFlow();
      await api.updateLoginFlow({ flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password: PASSWORD } });
    }
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const series = await owner.metrics.series({ projectId: project.id, eventType: 'LoginSucceeded', resolution: '1d', from, to });
    expect(series.data.reduce((n, p) => n + p.count, 0)).toBe(N);
    expect(await owner.metrics.attributes({ projectId: project.id, attribute: 'method', eventType: 'LoginSucceeded', from, to })).toEqual({
      data: [{ name: 'password', count: N }],
    });
    expect((await owner.metrics.sessions({ projectId: project.id, from, to })).data).toEqual([{ country: '', succeeded: N, failed: 0 }]);
    const page = await owner.metrics.events({ projectId: project.id, from, to, eventName: 'LoginSucceeded', pageSize: 3 });
    expect(page.events).toHaveLength(3);
    expect(page.nextPageToken).toBeTruthy();
    const rest = await owner.metrics.events({ projectId: project.id, from, to, eventName: 'LoginSucceeded', pageSize: 3, pageToken: page.nextPageToken });
    expect(rest.events).toHaveLength(N - 3);
    expect(rest.nextPageToken).toBeUndefined();
    const types = await owner.metrics.eventTypes({ projectId: project.id });
    expect(types.eventTypes).toEqual(expect.arrayContaining(['RegistrationSucceeded', 'LoginSucceeded', 'OAuth2TokenIssued', 'PermissionChecked']));
    expect(types.attributes).toContain('method');

    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(outsider.metrics.series({ projectId: project.id, eventType: 'LoginSucceeded', resolution: '1d', from, to }))).code);
  });

  it('counts daily active users from the events (each identity once a day) and the sessions active now', async () => {
    const own = await owner.projects.create({ name: 'Daily users', environment: 'dev' });
    const api = new FrontendApi(new Configuration({ basePath: `${stack.url}/project-api/${own.slug}` }));
    const emails = [0, 1].map(() => `d-${randomBytes(4).toString('hex')}@example.com`);
    for (const email of emails) {
      const reg = await api.createNativeRegistrationFlow();
      await api.updateRegistrationFlow({ flow: reg.data.id, updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email, name: 'D' } } });
    }
    for (let i = 0; i < 3; i++) {
      const flow = await api.createNativeLoginFlow();
      await api.updateLoginFlow({ flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: emails[0]!, password: PASSWORD } });
    }
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const answer = await owner.metrics.activeUsers({ projectId: own.id, from, to });
    expect(answer.daily.length).toBeGreaterThanOrEqual(3);
    expect(answer.daily.reduce((n, d) => n + d.count, 0)).toBe(2);
    expect(answer.daily.find((d) => d.count > 0)!.time).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    // Two sign-ups and three sign-ins, each with its session.
    expect(answer.activeSessions).toBe(5);
    expect((await rejection(owner.metrics.activeUsers({ projectId: own.id, from: to, to: from }))).code).toBe('BAD_REQUEST');
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(outsider.metrics.activeUsers({ projectId: own.id, from, to }))).code);
  });

  it('answers a range with too many buckets with a BAD_REQUEST saying what to change', async () => {
    const refused = await rejection(
      owner.metrics.series({ projectId: project.id, eventType: 'LoginSucceeded', resolution: '1m', from: new Date(Date.now() - 20 * 86_400_000).toISOString(), to: new Date().toISOString() }),
    );
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toMatch(/coarser resolution/);
  });
});
