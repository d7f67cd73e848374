import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createCaches, createDeps } from './deps';
import { createLogger } from './logger';
import { startLocalStack, type LocalStack } from '../localstack/index';
import { TEST_PUBLIC_URL, testConfig } from './test-support/bff';
import { deliverUntil } from './test-support/stack';
import { CookieJar } from './test-support/users';
import { recordWireAnswer } from './test-support/wire-recorder';

/** Everything both loggers (BFF and local stack) write, at the most talkative level. */
const written: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    written.push(String(chunk));
    done();
  },
});
const logger = createLogger('trace', {}, sink);
/** Every secret seen on the wire during the test. */
const secrets = new Set<string>();

let stack: LocalStack;
let app: FastifyInstance;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, uiUrl: TEST_PUBLIC_URL, passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 }, logger, mailbox: true, onAnswer: recordWireAnswer });
  const config = { ...testConfig(stack.url), logLevel: 'trace' as const };
  app = await buildApp(createDeps(config, logger, { caches: createCaches() }));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

const jar = new CookieJar();
const base = { accept: 'application/json', origin: TEST_PUBLIC_URL };

/** A browser step through the BFF: cookies kept, every cookie value noted as a secret. */
async function step(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...base, cookie: jar.header() };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const res = await app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  jar.store(cookies);
  for (const c of cookies) secrets.add(c.split(';')[0]!.split('=').slice(1).join('='));
  return res;
}

async function flow(kind: string): Promise<{ action: string; csrf: string }> {
  const res = await step('GET', `/.ory/self-service/${kind}/browser`);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  const csrf = body.ui.nodes.find((n: { attributes: { name?: string } }) => n.attributes.name === 'csrf_token').attributes.value as string;
  secrets.add(csrf);
  const action = new URL(body.ui.action);
  return { action: action.pathname + action.search, csrf };
}

const trpc = (method: 'GET' | 'POST', path: string, input?: unknown) =>
  app.inject({
    method,
    url: method === 'GET' ? `/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}` : `/api/trpc/${path}`,
    headers: { cookie: `theme=dark; ${jar.header()}`, 'x-console-request': '1', 'content-type': 'application/json', 'x-session-token': 'header-session-token-1' },
    ...(method === 'POST' ? { payload: input as object } : {}),
  });

describe('logs of a full sign-in and a few calls', () => {
  it('never contain a cookie value, session token, password, CSRF token or recovery code', async () => {
    const email = `logs-${Date.now()}@example.com`;
    const password = 'a-long-unrelated-passphrase-7';
    const newPassword = 'another-unrelated-passphrase-8';
    secrets.add(password).add(newPassword).add('header-session-token-1');

    const registration = await flow('registration');
    const registered = await step('POST', registration.action, { method: 'password', csrf_token: registration.csrf, password, traits: { email, name: 'Logged' } });
    expect(registered.statusCode).toBe(200);
    if (registered.json().session_token) secrets.add(registered.json().session_token);

    const logout = await step('GET', '/.ory/self-service/logout/browser');
    secrets.add(logout.json().logout_token);
    expect((await step('GET', `/.ory/self-service/logout?token=${logout.json().logout_token}`)).statusCode).toBeLessThan(400);

    const wrong = await flow('login');
    expect((await step('POST', wrong.action, { method: 'password', csrf_token: wrong.csrf, identifier: email, password: `${password}-wrong` })).statusCode).toBe(400);
    secrets.add(`${password}-wrong`);
    const login = await flow('login');
    expect((await step('POST', login.action, { method: 'password', csrf_token: login.csrf, identifier: email, password })).statusCode).toBe(200);

    expect((await trpc('GET', 'auth.session')).json().result.data.session.identity.traits.email).toBe(email);
    const workspace = (await trpc('POST', 'workspaces.create', { name: 'Logged workspace' })).json().result.data.id;
    const created = await trpc('POST', 'projects.create', { name: 'Logged project', environment: 'dev', workspaceId: workspace });
    expect(created.statusCode).toBe(200);
    // An SMTP password goes in, a message fails against that server: neither the edit nor the failure logs it.
    const projectId = created.json().result.data.id as string;
    const smtpPassword = 'smtp-Pa55word-never-logged';
    secrets.add(smtpPassword).add(encodeURIComponent(smtpPassword));
    const smtp = { projectId, strategy: 'smtp', smtpHost: '127.0.0.1', smtpPort: 1, smtpUsername: 'mailer', smtpPassword };
    expect((await trpc('POST', 'messaging.setEmailConfig', smtp)).statusCode).toBe(200);
    const sent = await trpc('POST', 'messaging.testSend', { projectId, kind: 'stub', recipient: 'logged@example.com', channel: 'email' });
    expect(sent.statusCode).toBe(200);
    const messageId = sent.json().result.data.id as string;
    await deliverUntil(
      stack,
      async () => (await trpc('GET', 'messaging.message', { projectId, id: messageId })).json().result.data.send_count as number,
      (sendCount) => expect(sendCount).toBeGreaterThan(0),
    );
    expect((await trpc('GET', 'projects.list')).statusCode).toBe(200);
    expect((await trpc('POST', 'projects.create', { name: '' })).statusCode).toBe(400);
    expect((await trpc('GET', 'projects.get', { projectId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);

    // Recovery is for signed-out users (a session present refuses it, as in Kratos).
    const signOut = await step('GET', '/.ory/self-service/logout/browser');
    secrets.add(signOut.json().logout_token);
    expect((await step('GET', `/.ory/self-service/logout?token=${signOut.json().logout_token}`)).statusCode).toBeLessThan(400);
    const recovery = await flow('recovery');
    expect((await step('POST', recovery.action, { method: 'code', csrf_token: recovery.csrf, email })).statusCode).toBe(200);
    const mail = (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(email)}`)).json()) as { body: string }[];
    const code = mail[0]!.body.match(/\b(\d{6})\b/)![1]!;
    const recovered = await step('POST', recovery.action, { method: 'code', csrf_token: recovery.csrf, code });
    expect(recovered.statusCode).toBe(422);
    const settingsId = new URL(recovered.json().redirect_browser_to).searchParams.get('flow');
    const settings = (await step('GET', `/.ory/self-service/settings/flows?id=${settingsId}`)).json();
    const settingsCsrf = settings.ui.nodes.find((n: { attributes: { name?: string } }) => n.attributes.name === 'csrf_token').attributes.value;
    secrets.add(settingsCsrf);
    const action = new URL(settings.ui.action);
    expect((await step('POST', action.pathname + action.search, { method: 'password', csrf_token: settingsCsrf, password: newPassword })).statusCode).toBe(200);

    const log = written.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('/.ory/self-service/login');
    expect(log).toMatch(/"reqId":/);
    const leaked = [...secrets].filter((secret) => secret.length >= 6 && log.includes(secret));
    expect(leaked).toEqual([]);
    expect(log).not.toMatch(new RegExp(`(?<![0-9.])${code}(?![0-9.])`));
    expect(log).not.toContain('ory_kratos_session=');
    expect(log).toContain('courier dispatch failed: Could not connect to the SMTP server at 127.0.0.1:1');
  });
});
