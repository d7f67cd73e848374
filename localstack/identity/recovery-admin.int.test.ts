import { Configuration, FrontendApi } from '@ory/client';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../test-support/control-plane';
import { sessions } from './schema';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, uniqueEmail, type TestProject } from '../test-support/admin-api';

let stack: LocalStack;
let project: TestProject;
let frontend: FrontendApi;

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Recovery');
  frontend = new FrontendApi(new Configuration({ basePath: project.base }));
});

afterAll(async () => {
  await stack?.close();
});

const admin = (method: string, path: string, body?: unknown) => call(project.base, method, path, { key: project.key, body });

async function identity(state: 'active' | 'inactive' = 'active'): Promise<string> {
  const created = await admin('POST', '/admin/identities', { schema_id: 'default', traits: { email: uniqueEmail('recover') }, state });
  expect(created.status).toBe(201);
  return created.body.id;
}

const sessionsOf = async (identityId: string) =>
  (await stack.db.orm.select({ n: count() }).from(sessions).where(and(eq(sessions.nid, project.id), eq(sessions.identity_id, identityId))))[0]?.n;

const IDENTITY_DISABLED = {
  id: 'identity_disabled',
  code: 400,
  status: 'Bad Request',
  message: 'identity is disabled',
  reason: 'This account was disabled.',
};

describe('admin recovery of an inactive identity', () => {
  it('a recovery link lands on the error page with identity_disabled and signs nobody in', async () => {
    for (const disable of ['before', 'after'] as const) {
      const id = await identity(disable === 'before' ? 'inactive' : 'active');
      const link = await admin('POST', '/admin/recovery/link', { identity_id: id });
      expect(link.status).toBe(200);
      if (disable === 'after') expect((await admin('PATCH', `/admin/identities/${id}`, [{ op: 'replace', path: '/state', value: 'inactive' }])).status).toBe(200);

      const opened = await fetch(link.body.recovery_link, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const location = new URL(opened.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(`${project.base}/ui/error`);
      expect(opened.headers.getSetCookie().some((c) => c.startsWith('ory_session_'))).toBe(false);
      const error = await fetch(`${project.base}/self-service/errors?id=${location.searchParams.get('id')}`);
      expect(((await error.json()) as { error: unknown }).error).toEqual({ ...IDENTITY_DISABLED, details: { identity_id: id } });
      expect(await sessionsOf(id)).toBe(0);
    }
  });

  it('a recovery code is refused with identity_disabled when redeemed, and signs nobody in', async () => {
    const id = await identity('inactive');
    const code = await admin('POST', '/admin/recovery/code', { identity_id: id });
    expect(code.status).toBe(201);
    const flow = new URL(code.body.recovery_link).searchParams.get('flow')!;
    const redeemed = await frontend.updateRecoveryFlow(
      { flow, updateRecoveryFlowBody: { method: 'code', code: code.body.recovery_code } },
      { validateStatus: () => true },
    );
    expect(redeemed.status).toBe(400);
    expect((redeemed.data as unknown as { error: unknown }).error).toEqual({ ...IDENTITY_DISABLED, details: { identity_id: id } });
    expect(await sessionsOf(id)).toBe(0);
  });
});

describe('expires_in of admin recovery links and codes', () => {
  const near = (iso: string, ms: number) => Math.abs(Date.parse(iso) - (Date.now() + ms)) < 60_000;

  it('defaults to one hour for links and codes alike, and reads Go durations', async () => {
    const id = await identity();
    const link = await admin('POST', '/admin/recovery/link', { identity_id: id });
    const code = await admin('POST', '/admin/recovery/code', { identity_id: id });
    expect(near(link.body.expires_at, 3_600_000)).toBe(true);
    expect(near(code.body.expires_at, 3_600_000)).toBe(true);
    for (const [expires_in, ms] of [
      ['1m30s', 90_000],
      ['1.5h', 5_400_000],
      ['48h', 172_800_000],
      ['2562047h', 2562047 * 3_600_000],
    ] as const) {
      for (const kind of ['link', 'code']) {
        const answer = await admin('POST', `/admin/recovery/${kind}`, { identity_id: id, expires_in });
        expect({ kind, expires_in, status: answer.status, near: near(answer.body.expires_at, ms) }).toEqual({ kind, expires_in, status: kind === 'code' ? 201 : 200, near: true });
      }
    }
  });

  it('refuses what is no Go duration, an overflow included, in Kratos\u2019 words', async () => {
    const id = await identity();
    for (const expires_in of ['99999999999999h', '15', '1d', 'soon']) {
      for (const kind of ['link', 'code']) {
        const answer = await admin('POST', `/admin/recovery/${kind}`, { identity_id: id, expires_in });
        expect({ kind, status: answer.status, reason: answer.body.error.reason }).toEqual({
          kind,
          status: 400,
          reason: `Unable to parse "expires_in" as a duration string (e.g. "1h", "1m30s", "500ms"): ${expires_in}`,
        });
      }
    }
  });

  it('refuses a lifespan that is not in the future, each call in its own words', async () => {
    const id = await identity();
    for (const [expires_in, shown] of [
      ['-1h', '-1h0m0s'],
      ['0', '0s'],
      ['-90s', '-1m30s'],
    ] as const) {
      const link = await admin('POST', '/admin/recovery/link', { identity_id: id, expires_in });
      expect([link.status, link.body.error.reason]).toEqual([400, `Value from "expires_in" must be result to a future time: ${expires_in}`]);
      const code = await admin('POST', '/admin/recovery/code', { identity_id: id, expires_in });
      expect([code.status, code.body.error.reason]).toEqual([400, `Value from "expires_in" must result to a future time: ${shown}`]);
    }
  });
});

describe('admin recovery of an identity that does not exist', () => {
  it('answers as Kratos: the link 400, the code 404', async () => {
    const missing = '00000000-0000-4000-8000-00000000beef';
    const link = await admin('POST', '/admin/recovery/link', { identity_id: missing });
    expect([link.status, link.body.error.reason]).toEqual([400, 'The requested identity id does not exist.']);
    const code = await admin('POST', '/admin/recovery/code', { identity_id: missing });
    expect(code.status).toBe(404);
    expect(code.body.error).toEqual({ code: 404, status: 'Not Found', message: 'Unable to locate the resource', reason: 'could not find identity' });
  });

  it('links a code to the project\u2019s recovery page, where it is entered', async () => {
    const code = await admin('POST', '/admin/recovery/code', { identity_id: await identity() });
    const link = new URL(code.body.recovery_link);
    expect(`${link.origin}${link.pathname}`).toBe(`${project.base}/ui/recovery`);
    expect(link.searchParams.get('flow')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
