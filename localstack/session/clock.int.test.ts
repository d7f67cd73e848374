import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { frontendApi, signUpToProject } from '../../server/test-support/users';
import { adminApis, call, newUser, projectWithKey, uniqueEmail, type TestProject } from '../test-support/admin-api';
import { rawCall, startTestStack } from '../test-support/control-plane';

const DAY_MS = 24 * 60 * 60_000;
/** The stack's default session lifespan (Kratos' 24 h). */
const LIFESPAN_MS = DAY_MS;

let stack: LocalStack;
let project: TestProject;

beforeAll(async () => {
  stack = await startTestStack();
  project = await projectWithKey(stack, await newUser(stack, 'Owner'), 'Clock');
});
afterAll(async () => {
  await stack?.close();
});

const whoami = (token: string) => frontendApi(project.base).toSession({ xSessionToken: token }, { validateStatus: () => true });

describe('sessions on the stack’s clock', () => {
  it('a project’s sessions and mail are stamped with the clock’s time, and a session ends when its lifespan passes on it', async () => {
    stack.clock.advance(365 * DAY_MS);
    const issuedFrom = stack.clock.now().getTime();
    const email = uniqueEmail('clocked');
    const signedUp = await signUpToProject(stack.url, project.slug, email);

    const live = await whoami(signedUp.token);
    expect(live.status).toBe(200);
    expect(Date.parse(live.data.issued_at!)).toBeGreaterThanOrEqual(issuedFrom);
    expect(Date.parse(live.data.expires_at!)).toBeGreaterThanOrEqual(issuedFrom + LIFESPAN_MS);
    // The verification mail the sign-up queued is dated on the clock too.
    const mail = (await adminApis(project, project.key).courier.listCourierMessages({ recipient: email })).data;
    expect(mail).toHaveLength(1);
    expect(Date.parse(mail[0]!.created_at)).toBeGreaterThanOrEqual(issuedFrom);

    stack.clock.advance(LIFESPAN_MS + 1);
    expect((await whoami(signedUp.token)).status).toBe(401);
    const admin = adminApis(project, project.key).identity;
    expect((await admin.getSession({ id: signedUp.sessionId })).data.active).toBe(false);
    expect((await admin.listSessions({ active: true })).data.map((s) => s.id)).not.toContain(signedUp.sessionId);
  });

  it('a console session ends when its lifespan passes on the clock, on the control plane and on a project’s admin API', async () => {
    const member = await newUser(stack, 'Member');
    const own = await projectWithKey(stack, member, 'Member’s');
    const adminPath = `/project-api/${own.slug}/admin/identities`;
    expect((await member.call('GET', `/projects/${own.id}`)).status).toBe(200);
    expect((await call(stack.url, 'GET', adminPath, { cookie: member.cookie })).status).toBe(200);

    stack.clock.advance(LIFESPAN_MS + 1);
    expect((await member.call('GET', `/projects/${own.id}`)).status).toBe(401);
    expect((await call(stack.url, 'GET', adminPath, { cookie: member.cookie })).status).toBe(401);
  });

  it('a developer’s jump of the clock (PUT /local/clock) carries working sessions along: no one is signed out', async () => {
    const member = await newUser(stack, 'Jumper');
    const signedUp = await signUpToProject(stack.url, project.slug, uniqueEmail('jumper'));
    const before = Date.parse((await whoami(signedUp.token)).data.expires_at!);

    const moved = await rawCall(stack.url, null, 'PUT', '/local/clock', { advance_days: 32 });
    expect(moved.status).toBe(200);
    expect((await member.call('GET', '/workspaces')).status).toBe(200);
    const after = await whoami(signedUp.token);
    expect(after.status).toBe(200);
    expect(Date.parse(after.data.expires_at!) - before).toBe(32 * DAY_MS);

    // Time that passes afterwards still ends them.
    stack.clock.advance(LIFESPAN_MS + 1);
    expect((await whoami(signedUp.token)).status).toBe(401);
  });
});
