import { randomBytes } from 'node:crypto';
import { Configuration, FrontendApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_NID } from '../kernel/tenant-id';
import { CONSOLE_TENANT } from '../event/record';
import { createProject, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';
import type { LocalStack } from '../index';

let stack: LocalStack;
let owner: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  [owner, outsider] = await Promise.all([newUser(stack, 'Watcher'), newUser(stack, 'Stranger')]);
});
afterAll(async () => {
  await stack?.close();
});

const PASSWORD = 'a-Long-and-unusual-passw0rd';

function projectUsers(slug: string) {
  const api = new FrontendApi(new Configuration({ basePath: `${stack.url}/project-api/${slug}` }));
  return {
    async signUp(): Promise<string> {
      const email = `user-${randomBytes(4).toString('hex')}@example.com`;
      const flow = await api.createNativeRegistrationFlow();
      await api.updateRegistrationFlow({ flow: flow.data.id, updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email, name: 'User' } } });
      return email;
    },
    async signIn(email: string, password = PASSWORD): Promise<number> {
      const flow = await api.createNativeLoginFlow();
      const res = await api.updateLoginFlow(
        { flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password } },
        { validateStatus: () => true },
      );
      return res.status;
    },
  };
}

const range = (fromMs: number, toMs: number) => `from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
const stackNow = async () => new Date((await rawCall(stack.url, null, 'PUT', '/local/clock', { advance_days: 0 })).body.now).getTime();

describe('metrics from recorded events', () => {
  it('counts sign-ups, sign-ins and failures in the series, by attribute, per country and in the event list', async () => {
    const project = await createProject(owner, 'Measured');
    const users = projectUsers(project.slug);
    const now = await stackNow();
    const emails = [await users.signUp(), await users.signUp()];
    for (let i = 0; i < 3; i++) expect(await users.signIn(emails[0]!)).toBe(200);
    expect(await users.signIn(emails[1]!, 'not-the-password-0')).toBe(400);

    const span = range(now - 3_600_000, now + 3_600_000);
    const series = async (type: string) => (await owner.call('GET', `/projects/${project.id}/metrics?event_type=${type}&resolution=1h&${span}`)).body;
    const signIns = await series('LoginSucceeded');
    expect(signIns.data.length).toBeGreaterThanOrEqual(2);
    expect(signIns.data.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(3);
    expect((await series('RegistrationSucceeded')).data.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(2);
    // Five sessions: two sign-ups and three sign-ins.
    expect((await series('SessionIssued')).data.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(5);

    const methods = await owner.call('GET', `/projects/${project.id}/metrics/attributes?attribute=method&event_type=LoginSucceeded&${span}`);
    expect(methods.body).toEqual({ data: [{ name: 'password', count: 3 }] });
    const sessions = await owner.call('GET', `/projects/${project.id}/metrics/sessions?${span}`);
    expect(sessions.body).toEqual({ data: [{ country: '', succeeded: 3, failed: 1 }] });

    const failed = await owner.call('POST', `/projects/${project.id}/metrics/events`, {
      from: new Date(now - 3_600_000).toISOString(),
      to: new Date(now + 3_600_000).toISOString(),
      filters: [{ attribute: 'reason', condition: 'equals', value: 'invalid_credentials' }],
    });
    expect(failed.status).toBe(200);
    expect(failed.body.events).toHaveLength(1);
    expect(failed.body.events[0].name).toBe('LoginFailed');

    // Paged: two at a time, newest first, every event once.
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await owner.call('POST', `/projects/${project.id}/metrics/events`, {
        from: new Date(now - 3_600_000).toISOString(),
        to: new Date(now + 3_600_000).toISOString(),
        event_name: 'SessionIssued',
        page_size: 2,
        ...(token ? { page_token: token } : {}),
      });
      expect(page.status).toBe(200);
      for (const e of page.body.events) seen.push(e.attributes.find((a: { key: string }) => a.key === 'session_id').value);
      token = page.body.page_token;
    } while (token);
    expect(new Set(seen).size).toBe(5);

    expect((await owner.call('GET', `/projects/${project.id}/metrics/event_types`)).body.events).toContain('PermissionChecked');
    // Another user sees none of it.
    expect([403, 404]).toContain((await outsider.call('GET', `/projects/${project.id}/metrics?event_type=LoginSucceeded&resolution=1h&${span}`)).status);
  });

  it('refuses what the caller can fix with a 400 that says what to change', async () => {
    const project = await createProject(owner, 'Refusals');
    const now = await stackNow();
    const tooFine = await owner.call('GET', `/projects/${project.id}/metrics?event_type=LoginSucceeded&resolution=1m&${range(now - 30 * 86_400_000, now)}`);
    expect(tooFine.status).toBe(400);
    expect(tooFine.body.error.reason).toMatch(/coarser resolution/);
    const backwards = await owner.call('GET', `/projects/${project.id}/metrics/sessions?${range(now, now - 1000)}`);
    expect(backwards.status).toBe(400);
    const badRegex = await owner.call('POST', `/projects/${project.id}/metrics/events`, {
      from: new Date(now - 1000).toISOString(),
      to: new Date(now).toISOString(),
      filters: [{ attribute: 'method', condition: 'regex', value: '(' }],
    });
    expect(badRegex.status).toBe(400);
    // Patterns whose matching can blow up never reach the database (PGlite has no statement timeout).
    const events = (value: string) =>
      owner.call('POST', `/projects/${project.id}/metrics/events`, {
        from: new Date(now - 1000).toISOString(),
        to: new Date(now).toISOString(),
        filters: [{ attribute: 'method', condition: 'regex', value }],
      });
    for (const [value, reason] of [
      ['^(a+)+$', /group that itself repeats/],
      ['(pass)\\1', /back-reference/],
      ['a{1,101}', /more than 100 times/],
    ] as const) {
      const refused = await events(value);
      expect(refused.status, value).toBe(400);
      expect(refused.body.error.reason).toMatch(reason);
    }
    const plain = await events('^pass(word)?$');
    expect(plain.status).toBe(200);
    expect(plain.body.events).toEqual([]);
  });

  it("keeps to the plan's metrics window: Develop reads back one day", async () => {
    const project = await createProject(owner, 'Windowed');
    const users = projectUsers(project.slug);
    const start = await stackNow();
    await users.signUp();
    const span = range(start - 86_400_000, start + 10 * 86_400_000);
    const count = async () =>
      ((await owner.call('GET', `/projects/${project.id}/metrics?event_type=RegistrationSucceeded&resolution=1d&${span}`)).body.data as { count: number }[]).reduce(
        (n, p) => n + p.count,
        0,
      );
    expect(await count()).toBe(1);
    expect((await rawCall(stack.url, null, 'PUT', '/local/clock', { advance_days: 2 })).status).toBe(200);
    expect(await count()).toBe(0);
    expect((await rawCall(stack.url, null, 'PUT', '/local/plan', { project_id: project.id, plan: 'Production@0' })).status).toBe(204);
    expect(await count()).toBe(1);
  });

  it("names the console's tenant as the kernel does, so its own sign-ins are never a project's events", () => {
    expect(CONSOLE_TENANT).toBe(CONSOLE_NID);
  });
});
