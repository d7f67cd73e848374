import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { deliverUntil } from '../test-support/stack';
import { frontendApi, registerUser } from '../test-support/users';
import { anyStatus } from '../test-support/project-flows';

/*
 * Sign-in codes by SMS: a project whose identity schema marks a phone trait as a code identifier `via: sms`,
 * its SMS channel (`messaging.setSmsConfig`, `courier.channels`) pointing at a receiver on loopback that this
 * test runs. The code reaches the receiver in the SMS channel's default body and signs the user in.
 */

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { To?: string; Body?: string };
}

/** An SMS provider on loopback: records every request and answers `status`. */
async function startReceiver(): Promise<{ url: string; received: Received[]; answer: (status: number) => void; close: () => Promise<void> }> {
  const received: Received[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Received['body'] });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms/send`,
    received,
    answer: (s) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let outsider: Caller;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startTestStack(), startReceiver()]);
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Sms Owner' }), registerUser(stack.url, { name: 'Sms Outsider' })]);
  owner = callerFor(deps, a.cookie);
  outsider = callerFor(deps, b.cookie);
});
afterAll(async () => {
  await Promise.all([stack?.close(), receiver?.close()]);
});

type Flow = { id: string; state: string; ui: { nodes: UiNode[]; messages?: { id: number; text: string }[] } };

/** A project with codes on, the phone preset as its schema, and its SMS channel at the receiver with an API key. */
async function phoneProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  await owner.schemas.setDefault({ projectId: project.id, schemaId: 'preset://phone' });
  await owner.projectConfig.setPasswordless({ projectId: project.id, code_passwordless_enabled: true });
  await owner.messaging.setSmsConfig({ projectId: project.id, enabled: true, url: receiver.url, authType: 'api_key', apiKeyName: 'X-Sms-Key', secret: 'sms-s3cret' });
  return { projectId: project.id, slug: project.slug, api: frontendApi(`${stack.url}/project-api/${project.slug}`) };
}

describe('sign-in codes by SMS', () => {
  it('texts the code to the phone number through the SMS channel, and the code signs the user in', async () => {
    const { projectId, api } = await phoneProject('Sms codes');
    const phone = '+4915112340001';
    const identity = await owner.identities.create({ projectId, schemaId: 'preset://phone', traits: { phone } });
    expect(await owner.messaging.smsConfig({ projectId })).toEqual({
      enabled: true,
      url: receiver.url,
      method: 'POST',
      authType: 'api_key',
      basicUser: '',
      apiKeyName: 'X-Sms-Key',
      secretSet: true,
    });
    expect(JSON.stringify(await owner.messaging.smsConfig({ projectId }))).not.toContain('sms-s3cret');

    const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
    const sent = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: phone } as never }, anyStatus);
    expect(sent.status).toBe(400);
    expect((sent.data as unknown as Flow).state).toBe('sent_email');
    expect((sent.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([1010014]);

    const [queued] = (await owner.messaging.messages({ projectId })).messages;
    expect(queued).toMatchObject({ type: 'phone', channel: 'sms', recipient: phone, subject: '', template_type: 'login_code_valid' });
    const message = await deliverUntil(
      stack.stack,
      () => owner.messaging.message({ projectId, id: queued!.id }),
      (m) => expect(m.status).toBe('sent'),
    );
    expect(message.dispatches?.map((d) => d.status)).toEqual(['success']);
    const request = receiver.received.find((r) => r.body.To === phone)!;
    expect(request).toMatchObject({ method: 'POST', url: '/sms/send' });
    expect(request.headers['x-sms-key']).toBe('sms-s3cret');
    expect(request.headers['content-type']).toBe('application/json');
    expect(Object.keys(request.body).sort()).toEqual(['Body', 'To']);
    const code = /Your login code is: (\d{6})\n\nIt expires in \d+ minutes\.\n/.exec(request.body.Body ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    // The WebOTP line names the host the flow was started at, so a phone can offer the code itself.
    expect(request.body.Body).toContain(`\n@127.0.0.1 #${code}\n`);

    const ok = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: phone, code } as never });
    expect(ok.status).toBe(200);
    expect(ok.data.session.identity?.id).toBe(identity.id);
    expect(ok.data.session.authentication_methods?.map((m) => m.method)).toEqual(['code']);
    // The number the code reached counts as verified.
    const after = await owner.identities.get({ projectId, identityId: identity.id });
    expect(after.verifiable_addresses).toEqual([expect.objectContaining({ value: phone, via: 'sms', verified: true })]);
  });

  it('without an SMS channel, texts the code to the local mailbox, where the developer reads it', async () => {
    const { projectId, slug, api } = await phoneProject('Sms mailbox');
    await owner.messaging.setSmsConfig({ projectId, enabled: false });
    const phone = '+4915112340003';
    await owner.identities.create({ projectId, schemaId: 'preset://phone', traits: { phone } });
    const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
    await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: phone } as never }, anyStatus);
    const listed = (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(phone)}&project=${slug}`)).json()) as { type: string; recipient: string; body: string }[];
    expect(listed).toEqual([expect.objectContaining({ type: 'phone', recipient: phone, body: expect.stringMatching(/^Your login code is: \d{6}\n/) })]);
    const page = await (await fetch(`${stack.url}/local/mailbox?project=${slug}`)).text();
    expect(page).toContain('<h2>Text message</h2>');
    expect(receiver.received.filter((r) => r.body.To === phone)).toEqual([]);
    const code = /(\d{6})/.exec(listed[0]!.body)![1];
    const ok = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: phone, code } as never });
    expect(ok.status).toBe(200);
  });

  it('retries a message the SMS endpoint refuses, then abandons it, and the key is in no dispatch', async () => {
    const { projectId, api } = await phoneProject('Sms refused');
    const phone = '+4915112340002';
    await owner.identities.create({ projectId, schemaId: 'preset://phone', traits: { phone } });
    receiver.answer(503);
    try {
      const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
      await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: phone } as never }, anyStatus);
      const [queued] = (await owner.messaging.messages({ projectId })).messages;
      const abandoned = await deliverUntil(
        stack.stack,
        () => owner.messaging.message({ projectId, id: queued!.id }),
        (m) => expect(m.status).toBe('abandoned'),
      );
      expect(abandoned).toMatchObject({ channel: 'sms', send_count: 5 });
      expect(abandoned.dispatches?.map((d) => d.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
      const port = new URL(receiver.url).port;
      expect(abandoned.dispatches?.[0]?.error).toMatchObject({ message: `Could not connect to the SMS endpoint at 127.0.0.1:${port}.` });
      expect(JSON.stringify(abandoned)).not.toContain('sms-s3cret');
      expect(receiver.received.filter((r) => r.body.To === phone)).toHaveLength(5);
      expect((await owner.messaging.messages({ projectId, status: 'abandoned' })).messages.map((m) => m.id)).toEqual([queued!.id]);
    } finally {
      receiver.answer(200);
    }
  });

  it('keeps a saved key when the URL stays, asks for what is missing, and nobody else may read or change the channel', async () => {
    const { projectId } = await phoneProject('Sms settings');
    const kept = await owner.messaging.setSmsConfig({ projectId, method: 'PUT' });
    expect(kept).toMatchObject({ method: 'PUT', authType: 'api_key', secretSet: true });
    const basicWithoutPassword = await rejection(owner.messaging.setSmsConfig({ projectId, authType: 'basic_auth', basicUser: 'sms' }));
    expect(basicWithoutPassword.code).toBe('BAD_REQUEST');
    expect(basicWithoutPassword.message).toMatch(/Enter the password/);
    const badHeader = await rejection(owner.messaging.setSmsConfig({ projectId, apiKeyName: 'X Key' }));
    expect(badHeader.code).toBe('BAD_REQUEST');
    expect(badHeader.message).toMatch(/header name/);
    // Refused writes left the channel as it was.
    expect(await owner.messaging.smsConfig({ projectId })).toEqual(kept);

    for (const attempt of [
      () => outsider.messaging.setSmsConfig({ projectId, enabled: true, url: 'http://127.0.0.1:1/mine' }),
      () => outsider.messaging.setSmsConfig({ projectId, enabled: false }),
      () => outsider.messaging.smsConfig({ projectId }),
    ]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
    expect(await owner.messaging.smsConfig({ projectId })).toEqual(kept);
  });
});
