import { Configuration, FrontendApi, type Message, type Session } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestStack } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { deliverUntil } from '../../server/test-support/stack';
import { adminApis, call, links, newUser, projectWithKey, seedMessage, seedSession, uniqueEmail, type TestProject } from '../test-support/admin-api';

let stack: LocalStack;
let project: TestProject;
let other: TestProject;
let apis: ReturnType<typeof adminApis>;
let ada: string;
let bea: string;

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Sessions');
  other = await projectWithKey(stack, owner, 'Other');
  apis = adminApis(project, project.key);
  const create = async (email: string) =>
    (await apis.identity.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email } } })).data.id;
  ada = await create(uniqueEmail('ada'));
  bea = await create(uniqueEmail('bea'));
});

afterAll(async () => {
  await stack?.close();
});

describe('sessions of a project', () => {
  it('lists, gets, extends and disables sessions, and pages newest first', async () => {
    const t0 = Date.now() - 60_000;
    const mine: { id: string; token: string }[] = [];
    for (let i = 0; i < 5; i += 1) mine.push(await seedSession(stack, project.id, i % 2 ? bea : ada, new Date(t0 + i * 1000)));
    const elsewhere = await seedSession(stack, other.id, (await call(other.base, 'POST', '/admin/identities', { key: other.key, body: { schema_id: 'default', traits: { email: uniqueEmail('o') } } })).body.id);

    const all = (await apis.identity.listSessions({ pageSize: 1000 })).data;
    expect(all.map((s) => s.id)).toEqual(mine.map((s) => s.id).reverse());
    expect(all[0]).not.toHaveProperty('identity');

    const seen: string[] = [];
    let next: string | undefined = `/project-api/${project.slug}/admin/sessions?page_size=2`;
    while (next) {
      const page = await call(stack.url, 'GET', next, { key: project.key });
      seen.push(...page.body.map((s: Session) => s.id));
      next = links(page).next;
    }
    expect(seen).toEqual(all.map((s) => s.id));

    const one = await apis.identity.getSession({ id: mine[0]!.id, expand: ['identity'] });
    expect(one.data).toMatchObject({ id: mine[0]!.id, active: true, identity: { id: ada } });
    expect((await failure(apis.identity.getSession({ id: elsewhere.id }))).status).toBe(404);

    const before = Date.parse(one.data.expires_at!);
    const extended = await apis.identity.extendSession({ id: mine[0]!.id });
    expect(Date.parse(extended.data.expires_at!)).toBeGreaterThan(before);

    expect((await apis.identity.disableSession({ id: mine[1]!.id })).status).toBe(204);
    expect((await apis.identity.getSession({ id: mine[1]!.id })).data.active).toBe(false);
    expect((await failure(apis.identity.extendSession({ id: mine[1]!.id }))).status).toBe(404);
    expect((await apis.identity.listSessions({ active: false })).data.map((s) => s.id)).toEqual([mine[1]!.id]);
    expect((await apis.identity.listSessions({ active: true })).data.map((s) => s.id)).not.toContain(mine[1]!.id);
    expect((await failure(apis.identity.disableSession({ id: elsewhere.id }))).status).toBe(404);

    const adas = await apis.identity.listIdentitySessions({ id: ada });
    expect(adas.data.map((s) => s.id)).toEqual([mine[4]!.id, mine[2]!.id, mine[0]!.id]);
    expect(adas.data[0]?.identity?.id).toBe(ada);
    expect((await apis.identity.deleteIdentitySessions({ id: ada })).status).toBe(204);
    expect((await apis.identity.listIdentitySessions({ id: ada })).data).toEqual([]);
    expect((await apis.identity.listIdentitySessions({ id: bea })).data).toHaveLength(2);
    // Kratos answers an identity it does not know (here: another project's) with no sessions, and a
    // delete of sessions that are not there with 404.
    expect((await apis.identity.listIdentitySessions({ id: elsewhere.id })).data).toEqual([]);
    expect((await failure(apis.identity.deleteIdentitySessions({ id: ada }))).status).toBe(404);
    expect((await call(other.base, 'GET', `/admin/sessions/${elsewhere.id}`, { key: other.key })).status).toBe(200);
  });
});

describe('what the project\u2019s end users do, seen and changed through the admin API', () => {
  it('signs in with a password set by an admin; disabling the session signs them out; a recovery code mail is listed', async () => {
    const email = uniqueEmail('end-user');
    const password = 'an-Admin-set-passw0rd';
    const created = await apis.identity.createIdentity({
      createIdentityBody: {
        schema_id: 'default',
        traits: { email },
        credentials: { password: { config: { password } } },
        metadata_public: { plan: 'gold' },
        metadata_admin: { note: 'only for admins' },
      },
    });
    const frontend = new FrontendApi(new Configuration({ basePath: project.base }));
    const flow = await frontend.createNativeLoginFlow();
    const login = await frontend.updateLoginFlow({ flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password } });
    const token = login.data.session_token!;
    expect(login.data.session.identity?.id).toBe(created.data.id);
    // The identity sees its public metadata, never the admin's.
    expect(login.data.session.identity?.metadata_public).toEqual({ plan: 'gold' });
    expect(login.data.session.identity).not.toHaveProperty('metadata_admin');

    const listed = await apis.identity.listIdentitySessions({ id: created.data.id, active: true });
    expect(listed.data.map((s) => s.id)).toEqual([login.data.session.id]);
    const whoami = () => frontend.toSession({ xSessionToken: token }, { validateStatus: () => true }).then((r) => r.status);
    expect(await whoami()).toBe(200);
    await apis.identity.disableSession({ id: login.data.session.id });
    expect(await whoami()).toBe(401);

    const recovery = await frontend.createNativeRecoveryFlow();
    await frontend.updateRecoveryFlow({ flow: recovery.data.id, updateRecoveryFlowBody: { method: 'code', email } });
    // The courier delivers asynchronously: run its passes until the message has left the queue.
    const mail = await deliverUntil(
      stack,
      () => apis.courier.listCourierMessages({ recipient: email }),
      (listed) => expect(listed.data[0]?.status).toBe('sent'),
    );
    expect(mail.data).toHaveLength(1);
    expect(mail.data[0]).toMatchObject({ recipient: email, template_type: 'recovery_code_valid', status: 'sent' });
    expect((await adminApis(other, other.key).courier.listCourierMessages({ recipient: email })).data).toEqual([]);
  });
});

describe('courier messages of a project', () => {
  it('lists newest first with status and recipient filters, pages, and gets one', async () => {
    const to = uniqueEmail('mail');
    const t0 = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push(await seedMessage(stack, project.id, i === 3 ? uniqueEmail('else') : to, new Date(t0 + i * 1000)));
    const foreign = await seedMessage(stack, other.id, to);

    const all = (await apis.courier.listCourierMessages({ pageSize: 1000 })).data;
    expect(all.map((m) => m.id).filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    expect(all.map((m) => m.id)).not.toContain(foreign);
    expect(all.find((m) => m.id === ids[0])).toMatchObject({ status: 'sent', type: 'email', template_type: 'recovery_code_valid', send_count: 1 });
    expect((await apis.courier.listCourierMessages({ recipient: to.toUpperCase() })).data.map((m) => m.id)).toEqual(
      ids.slice(0, 3).reverse(),
    );
    expect((await apis.courier.listCourierMessages({ status: 'queued' })).data).toEqual([]);

    const seen: string[] = [];
    let next: string | undefined = `/project-api/${project.slug}/admin/courier/messages?page_size=3`;
    while (next) {
      const page = await call(stack.url, 'GET', next, { key: project.key });
      seen.push(...page.body.map((m: Message) => m.id));
      next = links(page).next;
    }
    expect(seen).toEqual(all.map((m) => m.id));

    expect((await apis.courier.getCourierMessage({ id: ids[0]! })).data.id).toBe(ids[0]);
    expect((await failure(apis.courier.getCourierMessage({ id: foreign }))).status).toBe(404);
  });
});
