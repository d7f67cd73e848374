import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { deliverUntil } from '../test-support/stack';
import { frontendApi, registerUser, signUpToProject } from '../test-support/users';
import type { AppDeps } from '../deps';
import { findProject, findRevision } from '../test-support/localstack-data';

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let outsider: Caller;
let ownerCookie: string;
let projectId: string;
let slug: string;
let otherProjectId: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Mail Owner' }), registerUser(stack.url, { name: 'Mail Outsider' })]);
  ownerCookie = a.cookie;
  owner = callerFor(deps, a.cookie);
  outsider = callerFor(deps, b.cookie);
  const project = await owner.projects.create({ name: 'Mailer', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
  otherProjectId = (await outsider.projects.create({ name: 'Elsewhere', environment: 'dev' })).id;
});
afterAll(async () => {
  await stack?.close();
});

/** The project's local mailbox (loopback only), newest first. */
async function mailbox(to: string, project = slug): Promise<{ id: string; subject: string; body: string; template_type: string }[]> {
  const res = await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(to)}&project=${project}`);
  return (await res.json()) as { id: string; subject: string; body: string; template_type: string }[];
}

describe('email templates through the BFF', () => {
  it('lists every template and variant and answers the project default with its variables', async () => {
    const list = await owner.messaging.templates({ projectId });
    expect(list).toHaveLength(10);
    expect(list.every((t) => !t.custom)).toBe(true);
    const t = await owner.messaging.getTemplate({ projectId, template: 'recovery_code', variant: 'valid' });
    expect(t).toMatchObject({ custom: false, subject: 'Recover access to your account', label: 'Recovery code' });
    expect(t.plaintext).toContain('{{ .RecoveryCode }}');
    expect(t.variables.map((v) => v.name)).toEqual(expect.arrayContaining(['To', 'RecoveryCode', 'Identity']));
    expect(t.default.subject).toBe(t.subject);
    const bad = await rejection(owner.messaging.getTemplate({ projectId, template: 'welcome' as never, variant: 'valid' }));
    expect(bad.code).toBe('BAD_REQUEST');
    const noVariant = await rejection(owner.messaging.setTemplate({ projectId, template: 'login_code', variant: 'invalid', subject: 'S', html: 'H', plaintext: 'P' }));
    expect(noVariant).toMatchObject({ code: 'BAD_REQUEST', message: 'The template "login_code" has no invalid variant; use valid.' });
    expect((await owner.messaging.templates({ projectId })).some((t) => t.template === 'login_code' && t.variant === 'invalid')).toBe(false);
  });

  it('refuses a template that does not render, saying what to fix, and writes nothing', async () => {
    const bad = await rejection(
      owner.messaging.setTemplate({ projectId, template: 'recovery_code', variant: 'valid', subject: 'Code', html: '<p>{{ .RecoveryCode }}</p>', plaintext: 'Code: {{ .Nope }}' }),
    );
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/Plain-text body: \{\{ \.Nope \}\} is not a variable of this template/);
    const unclosed = await rejection(
      owner.messaging.setTemplate({ projectId, template: 'recovery_code', variant: 'valid', subject: 'Code {{ .To', html: 'x', plaintext: 'y' }),
    );
    expect(unclosed.message).toMatch(/Subject: .*not closed/);
    expect((await owner.messaging.getTemplate({ projectId, template: 'recovery_code', variant: 'valid' })).custom).toBe(false);
  });

  it('uses the edited recovery-code template in the project’s own recovery flow, then resets it to the default', async () => {
    const email = 'recovering@example.com';
    await signUpToProject(stack.url, slug, email);
    const saved = await owner.messaging.setTemplate({
      projectId,
      template: 'recovery_code',
      variant: 'valid',
      subject: 'Mailer code for {{ .Identity.traits.email }}',
      html: '<p>Your Mailer code is <b>{{ .RecoveryCode }}</b></p>',
      plaintext: 'Your Mailer code is {{ .RecoveryCode }}.',
    });
    expect(saved).toMatchObject({ custom: true, subject: 'Mailer code for {{ .Identity.traits.email }}' });
    expect((await owner.messaging.templates({ projectId })).find((t) => t.template === 'recovery_code' && t.variant === 'valid')?.custom).toBe(true);

    const frontend = frontendApi(`${stack.url}/project-api/${slug}`);
    const flow = await frontend.createNativeRecoveryFlow();
    await frontend.updateRecoveryFlow({ flow: flow.data.id, updateRecoveryFlowBody: { method: 'code', email } });
    const [mail] = await mailbox(email);
    expect(mail).toMatchObject({ subject: `Mailer code for ${email}`, template_type: 'recovery_code_valid' });
    expect(mail!.body).toMatch(/^Your Mailer code is \d{6}\.$/);

    const logged = await owner.messaging.messages({ projectId, recipient: email });
    expect(logged.messages.map((m) => m.id)).toContain(mail!.id);
    const detail = await owner.messaging.message({ projectId, id: mail!.id });
    expect(detail).toMatchObject({ status: 'sent', send_count: 1, subject: `Mailer code for ${email}` });
    expect(detail.dispatches?.map((d) => d.status)).toEqual(['success']);

    const reset = await owner.messaging.resetTemplate({ projectId, template: 'recovery_code', variant: 'valid' });
    expect(reset).toMatchObject({ custom: false, subject: 'Recover access to your account' });
  });
});

describe('email and SMS configuration through the BFF', () => {
  it('never answers the SMTP password, keeps it when an edit does not change it, and keeps other fields', async () => {
    const password = 'Sm7p-pa55word';
    const set = await owner.messaging.setEmailConfig({
      projectId,
      strategy: 'smtp',
      smtpHost: '127.0.0.1',
      smtpPort: 1,
      smtpUsername: 'mailer',
      smtpPassword: password,
      fromAddress: 'no-reply@mailer.example.com',
      fromName: 'Mailer',
    });
    expect(set).toMatchObject({ strategy: 'smtp', smtpHost: '127.0.0.1', smtpPort: 1, smtpPasswordSet: true, fromName: 'Mailer' });
    expect(JSON.stringify(set)).not.toContain(password);
    const renamed = await owner.messaging.setEmailConfig({ projectId, fromName: 'Mailer Team' });
    expect(JSON.stringify(renamed)).not.toContain(password);
    expect(JSON.stringify(await owner.messaging.emailConfig({ projectId }))).not.toContain(password);
    expect(JSON.stringify(await owner.projects.get({ projectId }))).not.toContain(password);
    // The control plane answers the URI with the password redacted; the stack keeps the password itself.
    const project = await deps.backoffice.getProject({ cookie: ownerCookie }, projectId);
    const courier = (project.services.identity as { config: { courier: { smtp: { connection_uri: string; from_name: string } } } }).config.courier;
    expect(courier.smtp.connection_uri).toBe('smtp://mailer:********@127.0.0.1:1/');
    expect(courier.smtp.from_name).toBe('Mailer Team');
    const stored = await findRevision(stack.stack.db, (await findProject(stack.stack.db, projectId))!.current_revision_id);
    expect(JSON.stringify(stored.services)).toContain(`smtp://mailer:${password}@127.0.0.1:1/`);

    const sms = await owner.messaging.setSmsConfig({ projectId, enabled: true, url: 'http://127.0.0.1:1/sms' });
    expect(sms).toEqual({ enabled: true, url: 'http://127.0.0.1:1/sms', method: 'POST', authType: 'none', basicUser: '', apiKeyName: '', secretSet: false });
    expect((await owner.messaging.emailConfig({ projectId })).smtpPasswordSet).toBe(true);
    expect(await owner.messaging.smsConfig({ projectId })).toEqual(sms);

    const missing = await rejection(owner.messaging.setEmailConfig({ projectId, strategy: 'http', httpUrl: '' }));
    expect(missing.code).toBe('BAD_REQUEST');
    expect(missing.message).toMatch(/Enter the URL/);
  });

  it('a test send through a refusing SMTP server shows failed dispatches, then abandoned, and never the password', async () => {
    const sent = await owner.messaging.testSend({ projectId, kind: 'recovery_code_valid', recipient: 'undeliverable@example.com', channel: 'email' });
    expect(sent).toMatchObject({ status: 'queued', template_type: 'recovery_code_valid' });
    const abandoned = await deliverUntil(
      stack.stack,
      () => owner.messaging.message({ projectId, id: sent.id }),
      (m) => expect(m.status).toBe('abandoned'),
    );
    expect(abandoned.send_count).toBe(5);
    expect(abandoned.dispatches?.every((d) => d.status === 'failed')).toBe(true);
    expect(JSON.stringify(abandoned)).toMatch(/Could not connect to the SMTP server at 127\.0\.0\.1:1/);
    expect(JSON.stringify(abandoned)).not.toContain('Sm7p-pa55word');
    expect((await owner.messaging.messages({ projectId, status: 'abandoned' })).messages.map((m) => m.id)).toContain(sent.id);
    expect(await mailbox('undeliverable@example.com')).toEqual([]);

    // An SMS through a refusing endpoint fails the same way.
    const sms = await owner.messaging.testSend({ projectId, kind: 'login_code_valid', recipient: '+15550001111', channel: 'sms' });
    await deliverUntil(
      stack.stack,
      () => owner.messaging.message({ projectId, id: sms.id }),
      (m) => expect(m.dispatches?.[0]?.status).toBe('failed'),
    );

    await owner.messaging.setEmailConfig({ projectId, strategy: 'default' });
    await owner.messaging.setSmsConfig({ projectId, enabled: false });
    expect(await owner.messaging.emailConfig({ projectId })).toMatchObject({ strategy: 'default', smtpPasswordSet: false, fromName: 'Mailer Team' });
  });

  it('pages the log 25 at a time with the next page token, filtered by recipient', async () => {
    const to = 'pages@example.com';
    for (let i = 0; i < 27; i += 1) await owner.messaging.testSend({ projectId, kind: 'stub', recipient: to, channel: 'email' });
    const first = await owner.messaging.messages({ projectId, recipient: to });
    expect(first.messages).toHaveLength(25);
    expect(first.nextPageToken).toEqual(expect.any(String));
    const second = await owner.messaging.messages({ projectId, recipient: to, pageToken: first.nextPageToken! });
    expect(second.messages).toHaveLength(2);
    expect(second.nextPageToken).toBeNull();
    expect(new Set([...first.messages, ...second.messages].map((m) => m.id)).size).toBe(27);
    // Reading the mailbox runs a courier pass first, which delivers all 27.
    expect(await mailbox(to)).toHaveLength(27);
    expect((await owner.messaging.messages({ projectId, recipient: to, status: 'sent' })).messages).toHaveLength(25);
  });
});

describe('isolation', () => {
  it('shows user B nothing of A’s messages or templates, and lets B not write them', async () => {
    const mine = await owner.messaging.testSend({ projectId, kind: 'stub', recipient: 'private@example.com', channel: 'email' });
    const attempts: (() => Promise<unknown>)[] = [
      () => outsider.messaging.messages({ projectId }),
      () => outsider.messaging.message({ projectId, id: mine.id }),
      () => outsider.messaging.templates({ projectId }),
      () => outsider.messaging.getTemplate({ projectId, template: 'recovery_code', variant: 'valid' }),
      () => outsider.messaging.emailConfig({ projectId }),
      () => outsider.messaging.testSend({ projectId, kind: 'stub', recipient: 'x@example.com', channel: 'email' }),
      () => outsider.messaging.setTemplate({ projectId, template: 'login_code', variant: 'valid', subject: 's', html: 'h', plaintext: 'p' }),
    ];
    for (const attempt of attempts) expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    // On B's own project, A's message is neither listed nor found.
    expect((await outsider.messaging.messages({ projectId: otherProjectId })).messages.map((m) => m.id)).not.toContain(mine.id);
    expect((await rejection(outsider.messaging.message({ projectId: otherProjectId, id: mine.id }))).code).toBe('NOT_FOUND');
    expect((await outsider.messaging.templates({ projectId: otherProjectId })).every((t) => !t.custom)).toBe(true);
  });
});
