import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderFirstPaint } from '../client/src/entry-server';
import { formatDate } from '../shared/domain/format';
import { READER_ZONE_COOKIE } from '../shared/reader-zone';
import { buildApp } from './app';
import type { AppDeps } from './deps';
import { TEST_PUBLIC_URL, startTestStack, testDeps, type TestStack } from './test-support/bff';
import { startRecordingProxy, type RecordingProxy } from './test-support/recording-proxy';
import { registerUser } from './test-support/users';

let stack: TestStack;
let oryProxy: RecordingProxy;
let deps: AppDeps;
let app: FastifyInstance;
let staticDir: string;
let cookie: string;

const api = { 'x-console-request': '1', 'content-type': 'application/json' };
/**
 * The HTML waits for every first answer however loaded the machine, and so does the page's code: these tests
 * are about what it carries. What a slow answer does is tested apart, with every upstream call held.
 */
const UNHURRIED = { firstAnswersWaitMs: 60_000, firstCodeHoldMs: 60_000 };
/** The entry script of the built client below, as its index.html names it. */
const ENTRY_SCRIPT = '<script type="module" crossorigin src="/assets/index-abc123.js"></script>';

beforeAll(async () => {
  stack = await startTestStack();
  oryProxy = await startRecordingProxy(stack.url);
  staticDir = await mkdtemp(join(tmpdir(), 'console-static-'));
  await mkdir(join(staticDir, 'assets'));
  // As the build writes it: the entry script and the modules it imports, named in the head.
  await writeFile(
    join(staticDir, 'index.html'),
    '<!doctype html><html><head><title>Console</title><script type="module" crossorigin src="/assets/index-abc123.js"></script><link rel="modulepreload" crossorigin href="/assets/react-abc123.js"></head><body><div id="root"></div></body></html>',
  );
  await writeFile(
    join(staticDir, 'route-preloads.json'),
    JSON.stringify([
      { id: 'projectSettings', pattern: '/projects/:project/settings', requiresAuth: true, files: ['/assets/app-abc123.js'] },
      { id: 'projectBilling', pattern: '/projects/:project/settings/billing', requiresAuth: true, files: [] },
      { id: 'workspaces', pattern: '/workspaces', requiresAuth: true, files: [] },
      { id: 'login', pattern: '/login', requiresAuth: false, files: ['/assets/login-abc123.js'] },
    ]),
  );
  await writeFile(join(staticDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  await writeFile(join(staticDir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
  await writeFile(join(staticDir, 'assets', 'app-abc123.js.gz'), gzipSync('console.log(1)'));
  await mkdir(join(staticDir, 'assets', 'fonts'));
  await writeFile(join(staticDir, 'assets', 'fonts', 'inter-abc123.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  deps = testDeps(stack.url, { orySdkUrl: oryProxy.url, ...UNHURRIED }, { staticDir });
  app = await buildApp(deps);
  await app.ready();
  cookie = (await registerUser(stack.url, {})).cookie;
});

afterAll(async () => {
  await app?.close();
  await oryProxy?.close();
  await stack?.close();
  await rm(staticDir, { recursive: true, force: true });
});

describe('CSRF rule', () => {
  it('refuses a POST without x-console-request', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { cookie, 'content-type': 'application/json' }, payload: { name: 'x' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.reason).toMatch(/x-console-request/);
  });

  it('refuses a request from another origin', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { ...api, cookie, origin: 'https://evil.example' }, payload: { name: 'x' } });
    expect(res.statusCode).toBe(403);
    const get = await app.inject({ method: 'GET', url: '/api/trpc/projects.list', headers: { cookie, origin: 'https://evil.example' } });
    expect(get.statusCode).toBe(403);
  });

  it('accepts a same-origin POST with the header', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { ...api, cookie, origin: TEST_PUBLIC_URL }, payload: { name: 'Via HTTP' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.name).toBe('Via HTTP');
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});

describe('tRPC over HTTP', () => {
  it('marks every answer no-store: queries, mutations and errors', async () => {
    const input = encodeURIComponent(JSON.stringify({}));
    const answers = [
      await app.inject({ method: 'GET', url: `/api/trpc/auth.session,projects.list?batch=1&input=${input}`, headers: { cookie } }),
      await app.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { ...api, cookie }, payload: { name: 'No store' } }),
      await app.inject({ method: 'GET', url: '/api/trpc/projects.list', headers: {} }),
      await app.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { cookie, 'content-type': 'application/json' }, payload: { name: 'x' } }),
      await app.inject({ method: 'GET', url: '/api/trpc/no.such.procedure', headers: { cookie } }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 401, 403, 404]);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers a batched GET', async () => {
    const input = encodeURIComponent(JSON.stringify({}));
    const res = await app.inject({ method: 'GET', url: `/api/trpc/auth.session,projects.list,workspaces.list?batch=1&input=${input}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { result: { data: unknown } }[];
    expect(body).toHaveLength(3);
    expect((body[0]!.result.data as { session: { identity: { id: string } } }).session.identity.id).toBeTruthy();
    expect(Array.isArray(body[1]!.result.data)).toBe(true);
  });

  it('caps batches at 10 calls', async () => {
    const paths = Array.from({ length: 11 }, () => 'auth.session').join(',');
    const res = await app.inject({ method: 'GET', url: `/api/trpc/${paths}?batch=1&input={}`, headers: { cookie } });
    expect(res.statusCode).toBe(400);
  });

  it('returns zod field issues in error.data.zodError', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/trpc/projects.create', headers: { ...api, cookie }, payload: { name: ' ', environment: 'nope' } });
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(error.data.zodError.fieldErrors).toHaveProperty('name');
    expect(error.data.zodError.fieldErrors).toHaveProperty('environment');
    expect(error.data.stack).toBeUndefined();
  });

  it('answers 401 for a signed-out call', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/trpc/projects.list' });
    expect(res.statusCode).toBe(401);
  });
});

describe('health', () => {
  it('/healthz answers ok', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks the upstreams', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const down = await buildApp(testDeps('http://127.0.0.1:1', {}, { staticDir }));
    const res = await down.inject({ method: 'GET', url: '/readyz' });
    await down.close();
    expect(res.statusCode).toBe(503);
    expect(res.json().upstreams.upstream).toBe('unreachable');
  });

  it('/readyz is not ready while the upstream says it is not (its database down)', async () => {
    const proxy = await startRecordingProxy(stack.url, { fail: (req) => (req.path === '/health/ready' ? 503 : undefined) });
    const notReady = await buildApp(testDeps(proxy.url, {}, { staticDir }));
    try {
      const res = await notReady.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', upstreams: { upstream: 'not ready' } });
      proxy.behaviour.fail = undefined;
      expect((await notReady.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await notReady.close();
      await proxy.close();
    }
  });
});

describe('static client', () => {
  it('serves index.html for client routes that accept HTML, with a CSP', async () => {
    const res = await app.inject({ method: 'GET', url: '/projects/123/settings', headers: { accept: 'text/html,*/*' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // One inline script, in the head (the theme, before anything paints), allowed by its hash alone.
    const inline = [...res.body.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    expect(res.body.indexOf('<script>')).toBeLessThan(res.body.indexOf('</head>'));
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`);
  });

  it('paints a signed-in page on the server, inert, when all its first answers are in; otherwise leaves the root empty', async () => {
    // The control plane behind a proxy that can fail one project's calls as an upstream down would (503).
    let broken = '';
    const upstream = await startRecordingProxy(stack.url, { fail: (req) => (broken && req.path.includes(broken) ? 503 : undefined) });
    const painting = await buildApp({ ...testDeps(upstream.url, { orySdkUrl: oryProxy.url, ...UNHURRIED }, { staticDir }), firstPaint: renderFirstPaint });
    try {
      const html = { accept: 'text/html' };
      const visitor = (await registerUser(stack.url, {})).cookie;
      const created = await painting.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { ...api, cookie: visitor }, payload: { name: "Painted <Harbor> & Co $& $'" } });
      expect(created.statusCode).toBe(200);
      // With an active project, so the frame's query for it answers too (a failed first query leaves the page
      // to the browser, where the frame meets the error).
      const workspaceId = (created.json() as { result: { data: { id: string } } }).result.data.id;
      const project = await painting.inject({ method: 'POST', url: '/api/trpc/projects.create', headers: { ...api, cookie: visitor }, payload: { name: 'Painted project', workspaceId } });
      expect(project.statusCode).toBe(200);
      const projectId = (project.json() as { result: { data: { id: string } } }).result.data.id;
      const active = await painting.inject({ method: 'POST', url: '/api/trpc/projects.setActive', headers: { ...api, cookie: visitor }, payload: { projectId } });
      expect(active.statusCode).toBe(200);
      const root = (body: string) => /<div id="root"( inert)?>([\s\S]*?)<\/div>\s*(?:<script type="application\/json"|<\/body>)/.exec(body);

      // The page as the browser would render it: the frame, the heading, the visitor's own workspace (escaped).
      const page = await painting.inject({ method: 'GET', url: '/workspaces', headers: { ...html, cookie: visitor } });
      expect(page.statusCode).toBe(200);
      const painted = root(page.body);
      expect(painted?.[1]).toBe(' inert');
      expect(painted?.[2]).toContain('data-testid="app-shell"');
      expect(painted?.[2]).toMatch(/<h1[^>]*>(<span[^>]*>)?Workspaces(<\/span>)?<\/h1>/);
      expect(painted?.[2]).toContain("Painted &lt;Harbor&gt; &amp; Co $&amp; $&#x27;");
      const carried = /<script type="application\/json" id="first-data">([^<]*)<\/script>/.exec(page.body);
      expect(JSON.stringify(JSON.parse(carried![1]!))).toContain("Painted <Harbor> & Co $& $'");
      // Its code is not named in the head, where the browser would fetch and compile it while the page is
      // asked and painted: a list at its end names it, and the one other inline script the CSP allows loads
      // it once the page is on screen.
      const [head] = page.body.split('</head>');
      expect(head).not.toContain('<script type="module"');
      expect(head).not.toContain('modulepreload');
      const later = /<script type="application\/json" id="code-after-paint">([^<]*)<\/script><script>([^<]*)<\/script><\/body>/.exec(page.body);
      expect(JSON.parse(later![1]!)).toEqual({ entry: '/assets/index-abc123.js', preloads: ['/assets/react-abc123.js'] });
      expect(String(page.headers['content-security-policy'])).toContain(`'sha256-${createHash('sha256').update(later![2]!).digest('base64')}'`);
      // Another visitor's page never shows it.
      const other = await painting.inject({ method: 'GET', url: '/workspaces', headers: { ...html, cookie } });
      expect(other.statusCode).toBe(200);
      expect(other.body).not.toContain('Painted');
      // Its dates are written in the zone the visitor's browser named (a cookie the console sets), as the page will
      // write them once it runs: two zones 25 hours apart, so never on the same day. A zone that is none leaves the
      // server's own.
      const createdAt = (created.json() as { result: { data: { created_at: string } } }).result.data.created_at;
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const zoned = await painting.inject({ method: 'GET', url: '/workspaces', headers: { ...html, cookie: `${visitor}; ${READER_ZONE_COOKIE}=${encodeURIComponent(zone)}` } });
        expect(root(zoned.body)?.[2]).toContain(`>${formatDate(createdAt, { timeZone: zone })}<`);
      }
      const unknownZone = await painting.inject({ method: 'GET', url: '/workspaces', headers: { ...html, cookie: `${visitor}; ${READER_ZONE_COOKIE}=Mars%2FOlympus` } });
      expect(root(unknownZone.body)?.[2]).toContain(`>${formatDate(createdAt)}<`);

      // A refusal the page would meet itself is painted as it would show it: this project is billed with its
      // workspace, so it has no subscription of its own.
      const billing = await painting.inject({ method: 'GET', url: `/projects/${projectId}/settings/billing`, headers: { ...html, cookie: visitor } });
      expect(billing.statusCode).toBe(200);
      const billingRoot = root(billing.body);
      expect(billingRoot?.[1]).toBe(' inert');
      expect(billingRoot?.[2]).toContain('data-testid="billing-no-subscription"');
      expect(billingRoot?.[2]).toContain('Project has no subscription');
      expect(billingRoot?.[2]).toContain(`href="/workspaces/${workspaceId}/settings/billing"`);

      // Not painted: an answer missing (an upstream down for one project), a query string, a stale cookie, an open page.
      const second = await painting.inject({ method: 'POST', url: '/api/trpc/projects.create', headers: { ...api, cookie: visitor }, payload: { name: 'Unreachable project', workspaceId } });
      expect(second.statusCode).toBe(200);
      broken = (second.json() as { result: { data: { id: string } } }).result.data.id;
      for (const [url, who] of [
        [`/projects/${broken}/settings`, visitor],
        ['/workspaces?page=2', visitor],
        ['/workspaces', 'ory_kratos_session=not-a-session'],
        ['/login', visitor],
      ] as const) {
        const plain = await painting.inject({ method: 'GET', url, headers: { ...html, cookie: who } });
        expect(plain.statusCode, url).toBe(200);
        expect(plain.body, url).toContain('<div id="root"></div>');
        expect(plain.body, url).not.toContain('app-shell');
        // A page not painted has its code named in its head, to run as soon as the page is in.
        expect(plain.body.split('</head>')[0], url).toContain(ENTRY_SCRIPT);
        expect(plain.body, url).not.toContain('code-after-paint');
      }
    } finally {
      await painting.close();
      await upstream.close();
    }
  });

  /**
   * A painting console whose every upstream call is held until the test ends (and no upstream deadline comes
   * first): whatever the machine's load, no first answer is in when `firstAnswersWaitMs` ends.
   */
  async function withHeldUpstream(firstAnswersWaitMs: number, test: (held: FastifyInstance, upstream: RecordingProxy) => Promise<void>) {
    const upstream = await startRecordingProxy(stack.url, { hang: () => true });
    const held = await buildApp({ ...testDeps(upstream.url, { firstAnswersWaitMs, upstreamTimeoutMs: 600_000 }, { staticDir }), firstPaint: renderFirstPaint });
    try {
      await test(held, upstream);
    } finally {
      await held.close();
      await upstream.close();
    }
  }

  it('sends the HTML when its wait is over, without the answers still on their way, and paints nothing then', async () => {
    await withHeldUpstream(20, async (held, upstream) => {
      const page = await held.inject({ method: 'GET', url: '/workspaces', headers: { accept: 'text/html', cookie } });
      expect(page.statusCode).toBe(200);
      // The session was asked (and is still held): the wait, not an answer, ended the HTML.
      await vi.waitFor(() => expect(upstream.requests.map((r) => r.path)).toContainEqual(expect.stringContaining('/sessions/whoami')));
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.body).not.toContain('app-shell');
      expect(page.body).not.toContain('id="first-data"');
      expect(page.body.split('</head>')[0]).toContain(ENTRY_SCRIPT);
    });
  });

  it("names a page's code in its head, without waiting longer, while its first answers are still on their way", async () => {
    // The answers wait their whole length (2 s); the code waits `firstCodeHoldMs` (250 ms).
    await withHeldUpstream(2_000, async (held) => {
      const url = await held.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${url}/workspaces`, { headers: { accept: 'text/html', cookie } });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes(ENTRY_SCRIPT)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      // The code is named while the body is still to come, in the head.
      expect(text).toContain(ENTRY_SCRIPT);
      expect(text).not.toContain('</head>');
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
      expect(text.split(ENTRY_SCRIPT)).toHaveLength(2);
      expect(text).toContain('<div id="root"></div>');
      expect(text).not.toContain('code-after-paint');
    });
  });

  it("names a route's page code as preloads in its HTML", async () => {
    const html = { accept: 'text/html' };
    const signedIn = await app.inject({ method: 'GET', url: '/projects/123/settings', headers: { ...html, cookie } });
    expect(signedIn.body).toContain('<link rel="modulepreload" crossorigin href="/assets/app-abc123.js">');
    const signedOut = await app.inject({ method: 'GET', url: '/login', headers: html });
    expect(signedOut.body).toContain('<link rel="modulepreload" crossorigin href="/assets/login-abc123.js">');
    const other = await app.inject({ method: 'GET', url: '/projects/123/elsewhere', headers: { ...html, cookie } });
    expect(other.body).not.toMatch(/(app|login)-abc123/);
  });

  it("carries a signed-in page's first answers in its HTML, for its visitor alone", async () => {
    const html = { accept: 'text/html' };
    const firstData = (body: string) => {
      const found = /<script type="application\/json" id="first-data">([^<]*)<\/script><\/body>/.exec(body);
      return found ? (JSON.parse(found[1]!) as { path: string; input?: unknown; data?: unknown; error?: unknown }[]) : undefined;
    };
    const page = await app.inject({ method: 'GET', url: '/workspaces', headers: { ...html, cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['vary']).toMatch(/cookie/i);
    const answers = firstData(page.body)!;
    // The very answers the procedures give over tRPC, under the paths and inputs the page asks them with.
    const viaApi = async (path: string, input: unknown) => {
      const batch = encodeURIComponent(JSON.stringify(input === undefined ? {} : { 0: input }));
      const res = await app.inject({ method: 'GET', url: `/api/trpc/${path}?batch=1&input=${batch}`, headers: { cookie } });
      return (res.json() as [{ result?: { data: unknown }; error?: unknown }])[0];
    };
    expect(answers.map((a) => (a.input === undefined ? a.path : `${a.path} ${JSON.stringify(a.input)}`)).sort()).toEqual([
      'auth.session',
      'invites.mine',
      'projects.getActive',
      'projects.list',
      'workspaces.list',
      'workspaces.list {"pageSize":25}',
    ]);
    // Each answer as tRPC sends it: the data, or for a refusal the very error the page would have met (no
    // project is active yet: 'projects.getActive' answers NOT_FOUND, which the page does not ask again).
    for (const answer of answers) {
      const sent = await viaApi(answer.path, answer.input);
      if (answer.error === undefined) expect(answer.data, answer.path).toEqual(sent.result?.data);
      else expect(answer.error, answer.path).toEqual(sent.error);
    }
    expect(answers.find((a) => a.path === 'projects.getActive')?.error).toMatchObject({ data: { code: 'NOT_FOUND', httpStatus: 404 } });

    // A project the visitor cannot reach: the page shows that refusal at once; the other answers are there.
    const missing = await app.inject({ method: 'GET', url: '/projects/00000000-0000-4000-8000-000000000000/settings', headers: { ...html, cookie } });
    const partial = firstData(missing.body)!;
    expect(partial.map((a) => a.path)).toContain('auth.session');
    const refused = partial.find((a) => a.path === 'projects.get');
    expect(refused?.error).toEqual((await viaApi('projects.get', { projectId: '00000000-0000-4000-8000-000000000000' })).error);
    expect(refused?.data).toBeUndefined();

    // Signed out, a stale cookie, a HEAD or an open page: no answers, and an HTML any cache may keep.
    const signedOut = await app.inject({ method: 'GET', url: '/workspaces', headers: html });
    expect(firstData(signedOut.body)).toBeUndefined();
    expect(signedOut.headers['cache-control']).toBe('no-cache');
    const stale = await app.inject({ method: 'GET', url: '/workspaces', headers: { ...html, cookie: 'ory_kratos_session=not-a-session' } });
    expect(firstData(stale.body)).toEqual([{ path: 'auth.session', data: { session: null } }]);
    const head = await app.inject({ method: 'HEAD', url: '/workspaces', headers: { ...html, cookie } });
    expect(head.statusCode).toBe(200);
    const open = await app.inject({ method: 'GET', url: '/login', headers: { ...html, cookie } });
    expect(firstData(open.body)).toBeUndefined();
  });

  it('serves the app shell at the root path', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    }
    expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('<div id="root">');
  });

  it('answers 404 for a missing asset even when the browser accepts HTML', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/gone-123.js', headers: { accept: 'text/html,*/*' } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('serves hashed assets with a long cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends the brotli copy built beside an asset to a browser that accepts it, and serves only files spelled as built', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe('console.log(1)');
    for (const url of ['/assets/APP-abc123.js', '/assets//app-abc123.js', '/assets/app-abc123.js.br']) {
      expect((await app.inject({ method: 'GET', url, headers: { accept: '*/*' } })).statusCode, url).toBe(404);
    }
  });

  it('sends gzip to a browser without brotli, the file itself to one that takes neither, each typed, and headers alone to HEAD', async () => {
    const gzip = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    expect(gzip.headers['vary']).toMatch(/accept-encoding/i);
    const plain = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // A file in a folder of assets/, with no compressed copy.
    const font = await app.inject({ method: 'GET', url: '/assets/fonts/inter-abc123.woff2', headers: { 'accept-encoding': 'br, gzip' } });
    expect(font.statusCode).toBe(200);
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['content-encoding']).toBeUndefined();
    expect([...font.rawPayload]).toEqual([0x77, 0x4f, 0x46, 0x32]);
    const head = await app.inject({ method: 'HEAD', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toContain('immutable');
    expect(head.body).toBe('');
  });

  it('answers 404 JSON for unknown API paths and non-HTML requests', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/missing.png', headers: { accept: 'image/png' } })).statusCode).toBe(404);
  });
});

describe('/.ory proxy', () => {
  it('refuses a foreign return_to before contacting the identity provider', async () => {
    oryProxy.requests.length = 0;
    for (const value of ['https://evil.example/x', '//evil.example', 'javascript:alert(1)']) {
      const res = await app.inject({ method: 'GET', url: `/.ory/self-service/login/browser?return_to=${encodeURIComponent(value)}`, headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.id).toBe('self_service_flow_return_to_forbidden');
    }
    expect(oryProxy.requests).toHaveLength(0);
  });

  it('relays a flow with first-party cookies and forwarded headers', async () => {
    oryProxy.requests.length = 0;
    const res = await app.inject({
      method: 'GET',
      url: `/.ory/self-service/login/browser?return_to=${encodeURIComponent(`${TEST_PUBLIC_URL}/projects`)}`,
      headers: { accept: 'application/json', cookie: 'theme=dark' },
    });
    expect(res.statusCode).toBe(200);
    const flow = res.json();
    expect(flow.ui.action.startsWith(`${TEST_PUBLIC_URL}/.ory/`)).toBe(true);
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(setCookie.length).toBeGreaterThan(0);
    for (const c of setCookie) expect(c).not.toMatch(/domain=/i);
    const seen = oryProxy.requests[0]!;
    expect(seen.headers['x-forwarded-prefix']).toBe('/.ory');
    expect(seen.headers['x-forwarded-host']).toBe('localhost:3000');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
  });

  it('carries a whole registration (JSON body, CSRF cookie) and relays the session cookie', async () => {
    const created = await app.inject({ method: 'GET', url: '/.ory/self-service/registration/browser', headers: { accept: 'application/json' } });
    expect(created.statusCode).toBe(200);
    const flow = created.json();
    const jar = ([] as string[]).concat(created.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const csrf = flow.ui.nodes.find((n: { attributes: { name?: string } }) => n.attributes.name === 'csrf_token').attributes.value;
    const action = new URL(flow.ui.action);
    expect(action.origin + action.pathname).toBe(`${TEST_PUBLIC_URL}/.ory/self-service/registration`);
    const email = `proxy-${Date.now()}@example.com`;
    const submitted = await app.inject({
      method: 'POST',
      url: action.pathname + action.search,
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie: jar, origin: TEST_PUBLIC_URL },
      payload: { method: 'password', csrf_token: csrf, password: 'a-long-unrelated-passphrase', traits: { email, name: 'Via proxy' } },
    });
    expect(submitted.statusCode).toBe(200);
    const session = ([] as string[]).concat(submitted.headers['set-cookie'] ?? []).find((c) => c.startsWith('ory_kratos_session='));
    expect(session).toBeDefined();
    expect(session).not.toMatch(/domain=/i);
    const me = await app.inject({ method: 'GET', url: '/api/trpc/auth.session', headers: { cookie: session!.split(';')[0] } });
    expect(me.json().result.data.session.identity.traits.email).toBe(email);
  });

  it('redirects browsers to our own origin', async () => {
    const res = await app.inject({ method: 'GET', url: '/.ory/self-service/login/browser', headers: { accept: 'text/html' } });
    expect([302, 303]).toContain(res.statusCode);
    expect(String(res.headers.location).startsWith(TEST_PUBLIC_URL)).toBe(true);
  });

  it('logs out and forgets the cached session', async () => {
    const user = await registerUser(stack.url, {});
    const session = async () =>
      (await app.inject({ method: 'GET', url: '/api/trpc/auth.session', headers: { cookie: user.cookie } })).json().result.data.session;
    expect(await session()).not.toBeNull();
    const start = await app.inject({ method: 'GET', url: '/.ory/self-service/logout/browser', headers: { accept: 'application/json', cookie: user.cookie } });
    expect(start.statusCode).toBe(200);
    const { logout_token: token } = start.json();
    const done = await app.inject({ method: 'GET', url: `/.ory/self-service/logout?token=${token}`, headers: { accept: 'application/json', cookie: user.cookie } });
    expect(done.statusCode).toBeLessThan(400);
    expect(await session()).toBeNull();
  });
});

describe('/.ory passes only the identity provider\'s public paths', () => {
  it.each([
    ['GET', '/.ory/projects'],
    ['POST', '/.ory/projects'],
    ['GET', '/.ory/workspaces'],
    ['POST', '/.ory/workspaces'],
    ['GET', '/.ory/console/active/project'],
    ['PUT', '/.ory/console/active/project'],
    ['GET', '/.ory/normalized/projects'],
    ['PATCH', '/.ory/normalized/projects/8d3f2c1e-0000-4000-8000-000000000000/revision/8d3f2c1e-0000-4000-8000-000000000001'],
    ['GET', '/.ory/local/mailbox'],
    ['GET', '/.ory/local/mailbox/messages'],
    ['GET', '/.ory/health/ready'],
  ] as const)('%s %s answers 404 without reaching the upstream', async (method, url) => {
    oryProxy.requests.length = 0;
    const res = await app.inject({ method, url, headers: { accept: 'application/json', cookie, origin: TEST_PUBLIC_URL, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) }, ...(method === 'GET' ? {} : { payload: '[]' }) });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 404, status: 'Not Found', reason: expect.stringMatching(/public paths/) });
    expect(oryProxy.requests).toHaveLength(0);
  });

  it.each([
    '/.ory/../x',
    '/.ory/%2e%2e/x',
    '/.ory/%2E%2E/projects',
    '/.ory/self-service/..%2f..%2fprojects',
    '/.ory/self-service/%2e%2e/%2e%2e/projects',
    '/.ory/self-service%5c..%5cprojects',
    '/.ory/self-service\\..\\projects',
    '/.ory//evil.example/projects',
  ])('answers 400 to the traversal %s sent as is, without reaching the upstream', async (path) => {
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    oryProxy.requests.length = 0;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers: { accept: 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 400, reason: expect.stringMatching(/Invalid path/) });
    expect(oryProxy.requests).toHaveLength(0);
  });
});
