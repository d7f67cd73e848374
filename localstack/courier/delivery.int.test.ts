import { Configuration, FrontendApi, type Message } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64Url } from '../../shared/domain/email-templates';
import { failure, startTestStack } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { deliverUntil } from '../../server/test-support/stack';
import { latestCode } from '../test-support/self-service';
import { adminApis, newUser, projectWithKey, uniqueEmail, type TestProject, type TestUser } from '../test-support/admin-api';

let stack: LocalStack;
let owner: TestUser;
let project: TestProject;
let other: TestProject;
let apis: ReturnType<typeof adminApis>;

beforeAll(async () => {
  stack = await startTestStack({ mailbox: true });
  owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Courier');
  const stranger = await newUser(stack, 'Stranger');
  other = await projectWithKey(stack, stranger, 'Elsewhere');
  apis = adminApis(project, project.key);
});

afterAll(async () => {
  await stack?.close();
});

const patch = (projectId: string, jsonPatch: { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown }[]) =>
  owner.projects.patchProject({ projectId, jsonPatch });

/** Runs the courier until the project's message `id` reaches `status`, and answers it. */
function settled(id: string, status: Message['status']): Promise<Message> {
  return deliverUntil(
    stack,
    async () => (await apis.courier.getCourierMessage({ id })).data,
    (message) => expect(message.status).toBe(status),
  );
}

async function recover(email: string): Promise<void> {
  const frontend = new FrontendApi(new Configuration({ basePath: project.base }));
  const flow = await frontend.createNativeRecoveryFlow();
  await frontend.updateRecoveryFlow({ flow: flow.data.id, updateRecoveryFlowBody: { method: 'code', email } });
}

describe('project defaults of the email templates', () => {
  it('answers each template and variant, and 404 with the reason for an unknown one', async () => {
    const res = await fetch(`${stack.url}/.well-known/project-defaults/email-templates/recovery_code/valid`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { subject: string; body: { html: string; plaintext: string } };
    expect(body.subject).toBe('Recover access to your account');
    expect(body.body.plaintext).toContain('{{ .RecoveryCode }}');
    expect(body.body.html).toContain('{{ .RecoveryCode }}');

    const unknown = await fetch(`${stack.url}/.well-known/project-defaults/email-templates/welcome/valid`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { reason: string } }).error.reason).toMatch(/no email template "welcome"/);
    const noVariant = await fetch(`${stack.url}/.well-known/project-defaults/email-templates/login_code/invalid`);
    expect(noVariant.status).toBe(404);
  });
});

describe('delivery of a project’s mail', () => {
  it('sends the project’s custom recovery-code template, queued → sent with a successful dispatch', async () => {
    const email = uniqueEmail('custom');
    await apis.identity.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email } } });
    await patch(project.id, [
      {
        op: 'add',
        path: '/services/identity/config/courier',
        value: {
          templates: {
            recovery_code: {
              valid: {
                email: {
                  subject: toBase64Url('Your Courier code for {{ .Identity.traits.email }}'),
                  body: { plaintext: toBase64Url('Custom text. Code: {{ .RecoveryCode }} (valid {{ .ExpiresInMinutes }} min)'), html: toBase64Url('<p>{{ .RecoveryCode }}</p>') },
                },
              },
            },
          },
        },
      },
    ]);
    await recover(email);
    const { message, code } = await latestCode(stack.url, email, project.slug);
    expect(message.subject).toBe(`Your Courier code for ${email}`);
    expect(message.body).toMatch(/^Custom text\. Code: \d{6} \(valid \d+ min\)$/);
    expect(code).toMatch(/^\d{6}$/);

    const [listed] = (await apis.courier.listCourierMessages({ recipient: email })).data;
    const sent = await settled(listed!.id, 'sent');
    expect(sent).toMatchObject({ template_type: 'recovery_code_valid', send_count: 1, type: 'email' });
    expect(sent.dispatches).toHaveLength(1);
    expect(sent.dispatches?.[0]).toMatchObject({ status: 'success', message_id: sent.id });
  });

  it('falls back to the default when the custom template is broken, and the flow still succeeds', async () => {
    const email = uniqueEmail('broken');
    await apis.identity.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email } } });
    await patch(project.id, [
      { op: 'replace', path: '/services/identity/config/courier/templates/recovery_code/valid/email/body/plaintext', value: toBase64Url('Code {{ if .RecoveryCode }}') },
    ]);
    await recover(email);
    const { message } = await latestCode(stack.url, email, project.slug);
    expect(message.body).toContain('please recover access to your account by entering the following code');
    await patch(project.id, [
      { op: 'replace', path: '/services/identity/config/courier/templates/recovery_code/valid/email/body/plaintext', value: toBase64Url('Custom text. Code: {{ .RecoveryCode }}') },
    ]);
  });

  it('tells an unknown address so with the invalid variant only when notify_unknown_recipients is on', async () => {
    const stranger = uniqueEmail('unknown');
    await recover(stranger);
    expect(await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(stranger)}`)).json()).toEqual([]);
    await patch(project.id, [{ op: 'add', path: '/services/identity/config/selfservice', value: { flows: { recovery: { notify_unknown_recipients: true } } } }]);
    await recover(stranger);
    const mail = (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(stranger)}`)).json()) as Message[];
    expect(mail.map((m) => [m.template_type, m.subject])).toEqual([['recovery_code_invalid', 'Account access attempted']]);
    expect(mail[0]!.body).not.toMatch(/\d{6}/);
    await patch(project.id, [{ op: 'remove', path: '/services/identity/config/selfservice' }]);
  });

  it('records failed dispatches against an SMTP server that refuses, then abandons the message', async () => {
    await patch(project.id, [
      { op: 'add', path: '/services/identity/config/courier/smtp', value: { connection_uri: 'smtp://mailer:s3cret-pass@127.0.0.1:1/', from_address: 'no-reply@example.com' } },
      { op: 'add', path: '/services/identity/config/courier/message_retries', value: 3 },
    ]);
    const to = uniqueEmail('refused');
    const sent = await owner.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'stub', recipient: to, channel: 'email' });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ status: 'queued', recipient: to, template_type: 'stub', send_count: 0 });

    const abandoned = await settled(sent.body.id, 'abandoned');
    expect(abandoned.send_count).toBe(3);
    expect(abandoned.dispatches?.map((d) => d.status)).toEqual(['failed', 'failed', 'failed']);
    const error = JSON.stringify(abandoned.dispatches?.[0]?.error);
    expect(error).toMatch(/Could not connect to the SMTP server at 127\.0\.0\.1:1\./);
    expect(error).not.toContain('s3cret-pass');
    expect((await apis.courier.listCourierMessages({ status: 'abandoned' })).data.map((m) => m.id)).toContain(sent.body.id);
    // Never delivered, so never in the local mailbox.
    const mailbox = (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(to)}`)).json()) as unknown[];
    expect(mailbox).toEqual([]);

    await patch(project.id, [{ op: 'remove', path: '/services/identity/config/courier/smtp' }]);
  });

  it('test-sends every kind on email and sms, rendered with the project’s template, into the log and the mailbox', async () => {
    const to = uniqueEmail('test-send');
    const email = await owner.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'recovery_code_valid', recipient: to });
    expect(email.status).toBe(201);
    const sms = await owner.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'login_code_valid', recipient: '+49 151 1234567', channel: 'sms' });
    expect(sms.status).toBe(201);
    expect(sms.body).toMatchObject({ type: 'phone', channel: 'sms', recipient: '+491511234567', template_type: 'login_code_valid' });
    expect((await settled(email.body.id, 'sent')).subject).toBe(`Your Courier code for ${to}`);
    await settled(sms.body.id, 'sent');
    const mailbox = (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(to)}&project=${project.slug}`)).json()) as Message[];
    expect(mailbox.map((m) => m.id)).toContain(email.body.id);

    const bad = await owner.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'welcome', recipient: to });
    expect(bad.status).toBe(400);
    const badPhone = await owner.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'stub', recipient: to, channel: 'sms' });
    expect(badPhone.status).toBe(400);
    expect(JSON.stringify(badPhone.body)).toMatch(/phone number/);
  });

  it('keeps each project’s messages to itself', async () => {
    const to = uniqueEmail('mine');
    const mine = await owner.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'stub', recipient: to });
    expect(mine.status).toBe(201);
    const theirs = adminApis(other, other.key);
    expect((await theirs.courier.listCourierMessages({ recipient: to })).data).toEqual([]);
    expect((await failure(theirs.courier.getCourierMessage({ id: mine.body.id }))).status).toBe(404);
    // Another user cannot test-send on this project.
    const stranger = await newUser(stack, 'Prober');
    expect([403, 404]).toContain((await stranger.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'stub', recipient: to })).status);
  });
});
