import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { loginUser, registerUser } from '../../server/test-support/users';
import { courierMessages } from '../identity/schema';
import { anyStatus, browser, csrfOf, latestCode, startTestStack, TEST_UI_URL } from '../test-support/self-service';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

type FlowBody = {
  id: string;
  state: string;
  return_to?: string;
  continue_with?: { action: string; redirect_browser_to?: string }[];
  ui: { messages?: { id: number; type: string; text: string }[]; nodes: { attributes: { name?: string; value?: unknown } }[] };
};

describe('settings', () => {
  it('answers 401 without a session', async () => {
    const b = browser(stack.url);
    const res = await b.api.createBrowserSettingsFlow({}, anyStatus);
    expect(res.status).toBe(401);
    expect((res.data as unknown as { error: { id: string } }).error.id).toBe('session_inactive');
  });

  it('changes the name, then the password', async () => {
    const user = await registerUser(stack.url, { name: 'Before' });
    const b = browser(stack.url);
    b.jar.store(user.cookie);
    const flow = b.keep(await b.api.createBrowserSettingsFlow({ cookie: b.cookie() }));
    expect(flow.data.identity.id).toBe(user.identityId);
    // The console account's settings also offer its second factors: a new authenticator app (QR code, secret, code, save) and
    // backup codes; and a new passkey (the script, "Add passkey" and the ceremony's fields).
    expect(flow.data.ui.nodes.map((n) => n.group)).toEqual([
      'default', 'profile', 'profile', 'profile', 'password', 'password', 'totp', 'totp', 'totp', 'totp', 'lookup_secret', 'webauthn', 'passkey', 'passkey', 'passkey',
    ]);
    const profile = await b.api.updateSettingsFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateSettingsFlowBody: { method: 'profile', csrf_token: csrfOf(flow.data), traits: { email: user.email, name: 'After' } },
    });
    expect(profile.status).toBe(200);
    expect(profile.data.state).toBe('success');
    expect(profile.data.ui.messages?.[0]).toMatchObject({ id: 1050001, type: 'success' });
    const who = await b.api.toSession({ cookie: b.cookie() });
    expect(who.data.identity?.traits.name).toBe('After');

    const short = await b.api.updateSettingsFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateSettingsFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password: 'short' } },
      anyStatus,
    );
    expect(short.status).toBe(400);
    const pw = await b.api.updateSettingsFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateSettingsFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password: 'a-brand-new-passphrase' },
    });
    expect(pw.data.state).toBe('success');
    await expect(loginUser(stack.url, user.email, 'a-brand-new-passphrase')).resolves.toMatchObject({ identityId: user.identityId });
    await expect(loginUser(stack.url, user.email, user.password)).rejects.toThrow();
  });

  it("refuses another user's settings flow", async () => {
    const a = await registerUser(stack.url);
    const other = await registerUser(stack.url);
    const b = browser(stack.url);
    b.jar.store(a.cookie);
    const flow = b.keep(await b.api.createBrowserSettingsFlow({ cookie: b.cookie() }));
    const res = await b.api.getSettingsFlow({ id: flow.data.id, cookie: other.cookie }, anyStatus);
    expect(res.status).toBe(403);
    const proxied = await fetch(`${stack.url}/local/mailbox`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'console.example.com', 'x-forwarded-prefix': '/.ory' },
    });
    expect(proxied.status).toBe(403);
  });
});

describe('recovery by code', () => {
  it('mails a code, signs the user in and opens settings that return with after-recovery', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserRecoveryFlow());
    const sent = await b.api.updateRecoveryFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateRecoveryFlowBody: { method: 'code', email: user.email, csrf_token: csrfOf(flow.data) },
    });
    expect(sent.data.state).toBe('sent_email');
    expect(sent.data.ui.messages?.[0]?.id).toBe(1060003);
    const { code, message } = await latestCode(stack.url, user.email);
    expect(message.template_type).toBe('recovery_code_valid');

    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await b.api.updateRecoveryFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', code: wrongCode, csrf_token: csrfOf(flow.data) } },
      anyStatus,
    );
    expect(wrong.status).toBe(400);
    expect((wrong.data as unknown as FlowBody).ui.messages).toEqual([
      { id: 4060006, type: 'error', text: 'The recovery code is invalid or has already been used. Please try again.' },
    ]);

    const ok = await b.api.updateRecoveryFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', code, csrf_token: csrfOf(flow.data) } },
      anyStatus,
    );
    b.keep(ok);
    expect(ok.status).toBe(422);
    const body = ok.data as unknown as { error: { id: string }; redirect_browser_to: string };
    expect(body.error.id).toBe('browser_location_change_required');
    const target = new URL(body.redirect_browser_to);
    expect(`${target.origin}${target.pathname}`).toBe(`${TEST_UI_URL}/settings`);
    const settingsId = target.searchParams.get('flow') ?? '';

    const who = await b.api.toSession({ cookie: b.cookie() });
    expect(who.data.identity?.id).toBe(user.identityId);
    expect(who.data.authentication_methods?.[0]?.method).toBe('code_recovery');

    const settings = await b.api.getSettingsFlow({ id: settingsId, cookie: b.cookie() });
    expect(settings.data.return_to).toBe(`${TEST_UI_URL}/?after-recovery=true`);
    const saved = await b.api.updateSettingsFlow({
      flow: settingsId,
      cookie: b.cookie(),
      updateSettingsFlowBody: { method: 'password', csrf_token: csrfOf(settings.data), password: 'recovered-passphrase-42' },
    });
    expect(saved.data.state).toBe('success');
    expect((saved.data as unknown as FlowBody).continue_with).toEqual([
      { action: 'redirect_browser_to', redirect_browser_to: `${TEST_UI_URL}/?after-recovery=true` },
    ]);
    await expect(loginUser(stack.url, user.email, 'recovered-passphrase-42')).resolves.toBeTruthy();

    const reused = await b.api.updateRecoveryFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', code, csrf_token: csrfOf(flow.data) } },
      anyStatus,
    );
    expect(reused.status).toBe(400);
  });

  it('does not reveal unknown addresses', async () => {
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserRecoveryFlow());
    const res = await b.api.updateRecoveryFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateRecoveryFlowBody: { method: 'code', email: 'ghost@example.com', csrf_token: csrfOf(flow.data) },
    });
    expect(res.data.state).toBe('sent_email');
    const mails = (await (await fetch(`${stack.url}/local/mailbox/messages?to=ghost@example.com`)).json()) as unknown[];
    expect(mails).toEqual([]);
  });
});

describe('verification by code', () => {
  it('verifies the address with the code mailed at registration', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    b.jar.store(user.cookie);
    const flow = b.keep(await b.api.createBrowserVerificationFlow());
    const sent = await b.api.updateVerificationFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateVerificationFlowBody: { method: 'code', email: user.email, csrf_token: csrfOf(flow.data) },
    });
    expect(sent.data.state).toBe('sent_email');
    const { code } = await latestCode(stack.url, user.email);
    const done = await b.api.updateVerificationFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateVerificationFlowBody: { method: 'code', code, csrf_token: csrfOf(flow.data) },
    });
    expect(done.data.state).toBe('passed_challenge');
    expect(done.data.ui.messages?.[0]).toMatchObject({ id: 1080002, type: 'success' });
    const who = await b.api.toSession({ cookie: user.cookie });
    expect(who.data.identity?.verifiable_addresses?.[0]).toMatchObject({ verified: true, status: 'completed' });
  });
});

describe('local mailbox', () => {
  it('lists messages newest first as JSON and escaped HTML', async () => {
    const user = await registerUser(stack.url, { email: `mailbox-${Date.now()}@example.com` });
    const res = await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(user.email)}`);
    const messages = (await res.json()) as { recipient: string }[];
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => m.recipient === user.email)).toBe(true);
    // Mail from any program on this machine, with markup in its subject and sender.
    const transport = nodemailer.createTransport({ host: stack.mailboxSmtp!.host, port: stack.mailboxSmtp!.port, secure: false });
    await transport.sendMail({ from: '"<b>App</b>" <app@example.com>', to: user.email, subject: `x<i>y-${Date.now()}`, text: 'Hi <script>' });
    transport.close();
    const html = await (await fetch(`${stack.url}/local/mailbox`)).text();
    expect(html).toContain('Local mailbox');
    expect(html).toContain(`x&lt;i&gt;y-`);
    expect(html).toContain('&lt;b&gt;App&lt;/b&gt;');
    expect(html).not.toContain('x<i>y-');
    expect(html).not.toContain('<script>');
  });

  it('abandons mail to an address that cannot go into an SMTP command, as Kratos does', async () => {
    const user = await registerUser(stack.url, { email: `x<i>y-${Date.now()}@example.com` });
    await fetch(`${stack.url}/local/mailbox`);
    const [message] = await stack.db.orm.select().from(courierMessages).where(eq(courierMessages.recipient, user.email));
    expect(message).toMatchObject({ status: 'abandoned', send_count: 1 });
  });

  it('is not served unless the stack is started with mailbox on', async () => {
    const closed = await startTestStack({ mailbox: false });
    try {
      const user = await registerUser(closed.url);
      for (const path of ['/local/mailbox', `/local/mailbox/messages?to=${encodeURIComponent(user.email)}`]) {
        const res = await fetch(`${closed.url}${path}`);
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain(user.email);
      }
    } finally {
      await closed.close();
    }
  });

  it('refuses requests forwarded for another machine', async () => {
    const res = await fetch(`${stack.url}/local/mailbox/messages`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(403);
    const proxied = await fetch(`${stack.url}/local/mailbox`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'console.example.com', 'x-forwarded-prefix': '/.ory' },
    });
    expect(proxied.status).toBe(403);
  });
});
