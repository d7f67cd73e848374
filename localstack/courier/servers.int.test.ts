import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { Configuration, FrontendApi, type Message } from '@ory/client';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestStack } from '../test-support/control-plane';
import { sendHttp } from './http';
import { sendSmtp } from './smtp';
import { deliveryTarget, type HttpTarget } from './target';
import type { LocalStack } from '../index';
import { adminApis, call, links, newUser, projectWithKey, seedMessage, uniqueEmail, type TestProject, type TestUser } from '../test-support/admin-api';

let stack: LocalStack;
let owner: TestUser;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  stack = await startTestStack({ mailbox: true, courierPollMs: 50 });
  owner = await newUser(stack, 'Owner');
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await stack?.close();
});

const portOf = (server: { address(): AddressInfo | string | null }) => (server.address() as AddressInfo).port;

async function listen(server: Server | ReturnType<typeof createHttpServer> | SMTPServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return portOf(server instanceof SMTPServer ? server.server : server);
}

/** Sets the project's `courier` config as a whole. */
async function configure(user: TestUser, project: TestProject, courier: Record<string, unknown>): Promise<void> {
  await user.projects.patchProject({ projectId: project.id, jsonPatch: [{ op: 'add', path: '/services/identity/config/courier', value: courier }] });
}

/** Waits until the project's message `id` reaches `status`, and answers it. */
async function settled(project: TestProject, id: string, status: Message['status']): Promise<Message> {
  const { courier } = adminApis(project, project.key);
  return vi.waitFor(
    async () => {
      const message = (await courier.getCourierMessage({ id })).data;
      expect(message.status).toBe(status);
      return message;
    },
    { timeout: 20_000, interval: 50 },
  );
}

async function testSend(user: TestUser, project: TestProject, recipient: string, channel: 'email' | 'sms' = 'email'): Promise<string> {
  const sent = await user.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: channel === 'sms' ? 'login_code_valid' : 'recovery_code_valid', recipient, channel });
  expect(sent.status).toBe(201);
  return sent.body.id as string;
}

async function mailbox(query: Record<string, string>): Promise<{ id: string; nid: string | null; recipient: string; subject: string; body: string; template_type: string | null; sender: string }[]> {
  const res = await fetch(`${stack.url}/local/mailbox/messages?${new URLSearchParams(query)}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe('a project’s own SMTP server', () => {
  it('A recovery code reaches an SMTP server the test runs itself, over real SMTP', async () => {
    const received: { mail: ParsedMail; session: SMTPServerSession; rcpt: string[] }[] = [];
    const server = new SMTPServer({
      logger: false,
      disableReverseLookup: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 'S3cret pass/word') return callback(null, { user: 'mailer' });
        callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        simpleParser(stream).then((mail) => {
          received.push({ mail, session, rcpt: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        }, callback);
      },
    });
    const port = await listen(server);
    const project = await projectWithKey(stack, owner, 'Own SMTP');
    const email = uniqueEmail('smtp-recovery');
    await adminApis(project, project.key).identity.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email } } });
    // STARTTLS is required by default (smtp://); the test server's certificate is self-signed, hence skip_ssl_verify.
    await configure(owner, project, {
      smtp: {
        connection_uri: `smtp://mailer:${encodeURIComponent('S3cret pass/word')}@localhost:${port}/?skip_ssl_verify=true`,
        from_address: 'no-reply@own-smtp.example.com',
        from_name: 'Own SMTP',
        headers: { 'X-Project-Tag': 'own-smtp' },
      },
    });

    const frontend = new FrontendApi(new Configuration({ basePath: project.base }));
    const flow = await frontend.createNativeRecoveryFlow();
    await frontend.updateRecoveryFlow({ flow: flow.data.id, updateRecoveryFlowBody: { method: 'code', email } });

    const got = await vi.waitFor(
      () => {
        expect(received).toHaveLength(1);
        return received[0]!;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(got.session.user).toBe('mailer');
    expect(got.session.secure).toBe(true);
    expect(got.rcpt).toEqual([email]);
    expect(got.mail.from?.text).toBe('"Own SMTP" <no-reply@own-smtp.example.com>');
    expect(got.mail.subject).toBe('Recover access to your account');
    expect(got.mail.headers.get('x-project-tag')).toBe('own-smtp');
    expect(got.mail.headers.has('x-courier-nid')).toBe(false);
    const code = /\b(\d{6})\b/.exec(got.mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(got.mail.html).toContain(code);

    const [message] = (await adminApis(project, project.key).courier.listCourierMessages({ recipient: email })).data;
    const sent = await settled(project, message!.id, 'sent');
    expect(sent.body).toContain(code);
    expect(sent.dispatches?.map((d) => d.status)).toEqual(['success']);
    // Delivered to the project's server, so not to the local mailbox.
    expect(await mailbox({ to: email })).toEqual([]);
  });

  it('reads a refused port and a listener that does not speak SMTP the same: could not connect', async () => {
    const notSmtp = createTcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
    const talkingPort = await listen(notSmtp);
    const refused = createTcpServer();
    const refusedPort = await listen(refused);
    await new Promise((resolve) => refused.close(resolve));

    const errors: string[] = [];
    for (const port of [refusedPort, talkingPort]) {
      const project = await projectWithKey(stack, owner, `Probe ${port}`);
      await configure(owner, project, { smtp: { connection_uri: `smtp://probe:Pr0be-secret@127.0.0.1:${port}/?disable_starttls=true` }, message_retries: 2 });
      const abandoned = await settled(project, await testSend(owner, project, uniqueEmail('probe')), 'abandoned');
      expect(abandoned.send_count).toBe(2);
      expect(abandoned.dispatches?.map((d) => d.status)).toEqual(['failed', 'failed']);
      const error = JSON.stringify(abandoned.dispatches?.[0]?.error);
      expect(error).not.toContain('Pr0be-secret');
      errors.push(error.replaceAll(String(port), 'PORT'));
    }
    expect(errors[0]).toBe(errors[1]);
    expect(JSON.parse(errors[0]!)).toEqual({ message: 'Could not connect to the SMTP server at 127.0.0.1:PORT.', reason: 'Could not connect to the SMTP server at 127.0.0.1:PORT.' });
  });

  it('sends nothing to a server off this machine: the mail goes to the local mailbox instead', async () => {
    const project = await projectWithKey(stack, owner, 'Elsewhere SMTP');
    await configure(owner, project, { smtp: { connection_uri: 'smtps://user:pass@192.0.2.1:465/' } });
    const to = uniqueEmail('elsewhere');
    const id = await testSend(owner, project, to);
    await settled(project, id, 'sent');
    expect((await mailbox({ to, project: project.slug })).map((m) => m.id)).toEqual([id]);
  });
});

describe('connecting to the address resolved once', () => {
  // Names under .test never resolve: were a name looked up again, these would fail with ENOTFOUND.
  it('sends SMTP to the address, with the configured name as the TLS server name', async () => {
    const names: unknown[] = [];
    const server = new SMTPServer({
      logger: false,
      disableReverseLookup: true,
      authOptional: true,
      onSecure(_socket, session, callback) {
        names.push(session.servername);
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    const port = await listen(server);
    const from = { address: 'no-reply@example.com', name: '' };
    const conn = { address: '127.0.0.1', port, serverName: 'mail.courier.test', implicitTls: false, startTls: true, skipVerify: true, user: '', password: '', from, localName: 'localhost' };
    await sendSmtp(conn, { to: 'a@example.com', subject: 'S', text: 'T', html: null, date: new Date(), headers: {} }, 5_000);
    expect(names).toEqual(['mail.courier.test']);
  });

  it('sends HTTP to the address, with the configured name as the Host header', async () => {
    const hosts: (string | undefined)[] = [];
    const server = createHttpServer((req, res) => {
      hosts.push(req.headers.host);
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    const port = await listen(server);
    const target = deliveryTarget({ courier: { delivery_strategy: 'http', http: { request_config: { url: `http://hooks.courier.test:${port}/x` } } } }, 'email') as HttpTarget;
    await sendHttp(target, '127.0.0.1', 4, { a: 1 }, 5_000);
    expect(hosts).toEqual([`hooks.courier.test:${port}`]);
  });
});

describe('HTTP delivery', () => {
  it('posts Kratos’ payload with the configured method, headers and basic auth to a server the test runs', async () => {
    const requests: { req: IncomingMessage; body: string }[] = [];
    let answer = 204;
    const server = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        requests.push({ req, body });
        res.writeHead(answer).end();
      });
    });
    const port = await listen(server);
    const project = await projectWithKey(stack, owner, 'HTTP mail');
    await configure(owner, project, {
      delivery_strategy: 'http',
      http: {
        request_config: {
          url: `http://localhost:${port}/mail?tenant=t1`,
          method: 'PUT',
          headers: { 'X-Tenant': 'http-mail' },
          auth: { type: 'basic_auth', config: { user: 'hook', password: 'H00k-secret' } },
        },
      },
      channels: [{ id: 'sms', type: 'http', request_config: { url: `http://127.0.0.1:${port}/sms`, auth: { type: 'api_key', config: { name: 'X-Api-Key', value: 'sms-key', in: 'header' } } } }],
      message_retries: 2,
    });
    const to = uniqueEmail('http');
    const id = await testSend(owner, project, to);
    await settled(project, id, 'sent');
    const mail = requests.find((r) => r.req.url === '/mail?tenant=t1')!;
    expect(mail.req.method).toBe('PUT');
    expect(mail.req.headers.host).toBe(`localhost:${port}`);
    expect(mail.req.headers['x-tenant']).toBe('http-mail');
    expect(mail.req.headers['content-type']).toBe('application/json');
    expect(mail.req.headers.authorization).toBe(`Basic ${Buffer.from('hook:H00k-secret').toString('base64')}`);
    expect(JSON.parse(mail.body)).toEqual({
      recipient: to,
      template_type: 'recovery_code_valid',
      to,
      recovery_code: '123456',
      recovery_url: null,
      verification_url: null,
      verification_code: null,
      subject: 'Recover access to your account',
      body: expect.stringContaining('123456'),
    });

    const smsId = await testSend(owner, project, '+4915112345678', 'sms');
    await settled(project, smsId, 'sent');
    const sms = requests.find((r) => r.req.url === '/sms')!;
    expect(sms.req.method).toBe('POST');
    expect(sms.req.headers['x-api-key']).toBe('sms-key');
    expect(JSON.parse(sms.body)).toEqual({ To: '+4915112345678', Body: expect.stringContaining('Your login code is: 123456') });

    // An endpoint that refuses reads like any other failure, and the password is in no dispatch.
    answer = 401;
    const failed = await settled(project, await testSend(owner, project, uniqueEmail('http-401')), 'abandoned');
    expect(failed.dispatches?.[0]?.error).toEqual({ message: `Could not connect to the HTTP endpoint at localhost:${port}.`, reason: `Could not connect to the HTTP endpoint at localhost:${port}.` });
    expect(JSON.stringify(failed)).not.toContain('H00k-secret');
  });
});

describe('the local mailbox', () => {
  it('receives mail from any SMTP client on this machine and shows it, untagged however its headers read', async () => {
    expect(stack.mailboxSmtp?.host).toBe('127.0.0.1');
    const project = await projectWithKey(stack, owner, 'Mailbox tags');
    const transport = nodemailer.createTransport({ host: stack.mailboxSmtp!.host, port: stack.mailboxSmtp!.port, secure: false, auth: { user: 'any-app', pass: 'whatever' } });
    const to = uniqueEmail('any-client');
    await transport.sendMail({
      from: 'An App <app@example.com>',
      to,
      subject: 'Hello from another program',
      text: 'Plain words.',
      html: '<p>Plain words.</p>',
      headers: { 'X-Courier-Nid': project.id, 'X-Courier-Template-Type': 'recovery_code_valid' },
    });
    transport.close();
    const [got] = await mailbox({ to });
    expect(got).toMatchObject({ nid: null, template_type: null, subject: 'Hello from another program', body: 'Plain words.', sender: '"An App" <app@example.com>', recipient: to });
    expect(await mailbox({ to, project: project.slug })).toEqual([]);
    const page = await (await fetch(`${stack.url}/local/mailbox?to=${encodeURIComponent(to)}`)).text();
    expect(page).toContain('Hello from another program');
    expect(page).toContain(`${stack.mailboxSmtp!.host}:${stack.mailboxSmtp!.port}`);
  });
});

describe('courier API fidelity', () => {
  it('pages 10 by default, cuts page_size to 500, and refuses an unknown status in Kratos’ words', async () => {
    const project = await projectWithKey(stack, owner, 'Paging');
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 12; i += 1) await seedMessage(stack, project.id, uniqueEmail('page'), new Date(t0 + i * 1000));
    const first = await call(project.base, 'GET', '/admin/courier/messages', { key: project.key });
    expect(first.body).toHaveLength(10);
    expect(links(first).next).toContain('page_size=10');
    expect((await call(project.base, 'GET', '/admin/courier/messages?page_size=0', { key: project.key })).body).toHaveLength(10);
    const big = await call(project.base, 'GET', '/admin/courier/messages?page_size=600', { key: project.key });
    expect(big.body).toHaveLength(12);
    expect(links(big).first).toContain('page_size=500');
    const bad = await call(project.base, 'GET', '/admin/courier/messages?status=lost', { key: project.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reason).toBe('Message status is not valid');
  });

  it('redacts subjects and bodies unless the stack is in dev mode (its local mailbox on); undeliverable mail fails', async () => {
    const quiet = await startTestStack({ mailbox: false, courierPollMs: 50 });
    try {
      const user = await newUser(quiet, 'Quiet');
      const project = await projectWithKey(quiet, user, 'Quiet');
      await configure(user, project, { message_retries: 1 });
      const sent = await user.call('POST', `/projects/${project.id}/courier/test-messages`, { kind: 'stub', recipient: uniqueEmail('quiet') });
      expect(sent.status).toBe(201);
      const { courier } = adminApis(project, project.key);
      const abandoned = await vi.waitFor(
        async () => {
          const m = (await courier.getCourierMessage({ id: sent.body.id })).data;
          expect(m.status).toBe('abandoned');
          return m;
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(abandoned).toMatchObject({ subject: '<redacted-unless-dev-mode>', body: '<redacted-unless-dev-mode>' });
      expect(abandoned.dispatches?.[0]?.error).toMatchObject({ reason: 'No SMTP server is configured (courier.smtp.connection_uri), and the local mailbox is off: the message was not sent.' });
      expect((await courier.listCourierMessages()).data.map((m) => [m.subject, m.body])).toEqual([['<redacted-unless-dev-mode>', '<redacted-unless-dev-mode>']]);
    } finally {
      await quiet.close();
    }
    const project = await projectWithKey(stack, owner, 'Dev mode');
    const id = await testSend(owner, project, uniqueEmail('dev'));
    expect((await settled(project, id, 'sent')).subject).toBe('Recover access to your account');
  });
});
