import type { AddressInfo } from 'node:net';
import { Configuration, OAuth2Api } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { testDeps } from './test-support/bff';
import { startPgRelay, type PgRelay } from './test-support/pg-relay';
import { createDurableStore, startTestStack, type DurableStore, type LocalStack } from './test-support/stack';
import { registerUser } from './test-support/users';

/**
 * A local stack whose PostgreSQL goes away (its connections silent, new ones refused), and a console in front of
 * it: every endpoint answers 503 with Retry-After, a failure a client may try again, never 500; and all of
 * them answer again once the database is back. (Collected only when DATABASE_URL is set.)
 */
let store: DurableStore;
let relay: PgRelay;
let stack: LocalStack;
let app: FastifyInstance;
let consoleUrl: string;
let cookie: string;
let projectBase: string;
let key: string;
let client: { id: string; secret: string };

async function trpc(method: 'GET' | 'POST', path: string, input: unknown) {
  const headers: Record<string, string> = { cookie };
  const url = `${consoleUrl}/api/trpc/${path}${method === 'GET' ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`;
  if (method === 'POST') Object.assign(headers, { 'x-console-request': '1', 'content-type': 'application/json' });
  const res = await fetch(url, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(input) } : {}) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { result?: { data: any }; error?: any } };
}

async function raw(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : undefined };
}

const token = () =>
  raw(`${projectBase}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` },
    body: 'grant_type=client_credentials',
  });

beforeAll(async () => {
  store = await createDurableStore();
  relay = await startPgRelay(store.options.databaseUrl!);
  stack = await startTestStack({ ...store.options, databaseUrl: relay.url });
  app = await buildApp(testDeps(stack.url));
  await app.listen({ port: 0, host: '127.0.0.1' });
  consoleUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  ({ cookie } = await registerUser(stack.url, { name: 'Outage' }));
  const workspace = (await trpc('POST', 'workspaces.create', { name: 'Outage' })).body.result!.data as { id: string };
  const project = (await trpc('POST', 'projects.create', { name: 'Outage', environment: 'dev', workspaceId: workspace.id })).body.result!.data as { id: string; slug: string };
  key = ((await trpc('POST', 'apiKeys.create', { projectId: project.id, name: 'Outage key' })).body.result!.data as { value: string }).value;
  projectBase = `${stack.url}/project-api/${project.slug}`;
  const oauth2 = new OAuth2Api(new Configuration({ basePath: projectBase, accessToken: key }));
  const { data } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_basic' } });
  client = { id: data.client_id!, secret: data.client_secret! };
  expect((await token()).status).toBe(200);
});

// The relay goes first: closed, it ends every connection the stack's pool still holds (a connection made
// quiet by the outage is not known dead until it is used), so nothing below waits on one. Closed last, the
// stack's close waited on such connections: under 0.2 s alone, but past 60 s, and once past the hook's
// 180 s, in the PostgreSQL pass beside the journeys (load about 16).
afterAll(async () => {
  await relay?.close();
  await app?.close();
  await stack?.close();
  await store?.dispose();
}, 180_000);

describe('while the database is unreachable', () => {
  it('answers 503 with Retry-After on the control plane, the identity and OAuth2 APIs and the console, then serves again', async () => {
    relay.silence();
    relay.refuse();

    const answers = {
      workspaces: await raw(`${stack.url}/workspaces`, { headers: { cookie, accept: 'application/json' } }),
      whoami: await raw(`${stack.url}/sessions/whoami`, { headers: { cookie, accept: 'application/json' } }),
      identities: await raw(`${projectBase}/admin/identities`, { headers: { authorization: `Bearer ${key}` } }),
      token: await token(),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect({ name, status: answer.status, retryAfter: answer.retryAfter }).toEqual({ name, status: 503, retryAfter: '1' });
    }
    // oidc-provider's adapter failed: the token endpoint says so in OAuth's words, not as its server_error 500.
    expect(answers.token.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/database connection was lost/) });

    const listed = await trpc('GET', 'workspaces.list', {});
    expect(listed.status).toBe(503);
    expect(listed.retryAfter).toBe('1');
    expect(listed.body.error.data.code).toBe('SERVICE_UNAVAILABLE');

    relay.accept();
    expect((await token()).status).toBe(200);
    const again = await trpc('GET', 'workspaces.list', {});
    expect(again.status).toBe(200);
    expect(again.body.result!.data.workspaces.map((w: { name: string }) => w.name)).toEqual(['Outage']);
  });
});
