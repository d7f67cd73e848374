import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookInput } from '../../shared/schemas/actions';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser, signUpToProject } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let server: Server;
let base: string;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

const PASSWORD = 'a-Long-and-unusual-passw0rd';
const hook = (over: Partial<HookInput>): HookInput => ({
  flow: 'registration',
  timing: 'after',
  method: 'password',
  url: `${base}/ok`,
  httpMethod: 'POST',
  body: '',
  auth: { type: 'none' },
  canInterrupt: false,
  ignoreResponse: false,
  ...over,
});

/** Registers through the project's API flow; answers the status and body of the submission. */
async function register(slug: string, email: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const api = `${stack.url}/project-api/${slug}`;
  const flow = (await (await fetch(`${api}/self-service/registration/api`, { headers: { accept: 'application/json' } })).json()) as { id: string };
  const res = await fetch(`${api}/self-service/registration?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ method: 'password', password: PASSWORD, traits: { email, name: 'Hooked' } }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Hook Owner' })).cookie);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/deny') {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ messages: [{ instance_ptr: '#/traits/email', messages: [{ id: 4000100, text: 'Sign-ups from this domain are closed.', type: 'error', context: { domain: 'closed.example' } }] }] }));
        return;
      }
      res.statusCode = req.url === '/broken' ? 500 : 200;
      res.end(req.url === '/broken' ? 'down' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await stack?.close();
});

describe('identity actions (web hooks) through the BFF', () => {
  it('an interrupting hook stops registration with its message on the field it names, and the call is logged', async () => {
    const project = await owner.projects.create({ name: 'Hooks deny', environment: 'dev' });
    const set = await owner.actions.set({ projectId: project.id, hooks: [hook({ url: `${base}/deny`, canInterrupt: true })] });
    expect(set.hooks).toEqual([expect.objectContaining({ flow: 'registration', timing: 'after', method: 'password', url: `${base}/deny`, canInterrupt: true, ignoreResponse: false })]);

    const denied = await register(project.slug, 'someone@closed.example');
    expect(denied.status).toBe(400);
    const ui = denied.body.ui as { nodes: { attributes: { name?: string }; messages: { id: number; text: string; type: string }[] }[] };
    const email = ui.nodes.find((n) => n.attributes.name === 'traits.email');
    expect(email?.messages).toEqual([expect.objectContaining({ id: 4000100, text: 'Sign-ups from this domain are closed.', type: 'error' })]);
    const { identities } = await owner.identities.list({ projectId: project.id });
    expect(identities).toEqual([]);

    const sent = received.find((r) => r.path === '/deny');
    expect(sent?.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(sent!.body) as { ctx: { identity: { traits: { email: string } }; flow: { id: string }; request_method: string } };
    expect(payload.ctx.identity.traits.email).toBe('someone@closed.example');
    expect(payload.ctx.request_method).toBe('POST');

    const log = await owner.actions.log({ projectId: project.id });
    expect(log.calls).toEqual([expect.objectContaining({ flow: 'registration', timing: 'after', method: 'password', status: 'failed', response_code: 403, interrupted: true, url: `${base}/deny` })]);
  });

  it('a failing hook that may not interrupt is logged failed and registration still succeeds; the hook gets its auth header', async () => {
    const project = await owner.projects.create({ name: 'Hooks broken', environment: 'dev' });
    await owner.actions.set({
      projectId: project.id,
      hooks: [
        hook({ url: `${base}/broken`, auth: { type: 'basic_auth', user: 'hooker', password: 's3cret-pass' } }),
        hook({ timing: 'before', method: null, url: `${base}/before`, auth: { type: 'api_key', name: 'X-Hook-Key', value: 'key-123', in: 'header' } }),
      ],
    });
    const before = received.length;
    const ok = await register(project.slug, 'fine@open.example');
    expect(ok.status).toBe(200);
    expect((ok.body.identity as { traits: { email: string } }).traits.email).toBe('fine@open.example');

    const calls = received.slice(before);
    const broken = calls.find((r) => r.path === '/broken');
    expect(broken?.headers.authorization).toBe(`Basic ${Buffer.from('hooker:s3cret-pass').toString('base64')}`);
    expect(calls.find((r) => r.path === '/before')?.headers['x-hook-key']).toBe('key-123');

    const log = await owner.actions.log({ projectId: project.id });
    expect(log.calls.map((c) => [c.timing, c.status, c.response_code])).toEqual(
      expect.arrayContaining([
        ['before', 'success', 200],
        ['after', 'failed', 500],
      ]),
    );
    expect(log.calls).toHaveLength(2);

    // Secrets are never read back; an edit without them keeps them.
    const got = await owner.actions.get({ projectId: project.id });
    expect(JSON.stringify(got)).not.toContain('s3cret-pass');
    expect(JSON.stringify(got)).not.toContain('key-123');
    const edited = got.hooks.map((h) => ({ ...hook({}), key: h.key, flow: h.flow, timing: h.timing, method: h.timing === 'before' ? null : 'password' as const, url: h.url, auth: h.auth.type === 'basic_auth' ? { type: 'basic_auth' as const, user: 'renamed' } : { type: 'api_key' as const, name: 'X-Hook-Key', in: 'header' as const } }));
    await owner.actions.set({ projectId: project.id, revisionId: got.revisionId, hooks: edited });
    await signUpToProject(stack.url, project.slug, 'again@open.example');
    expect(received.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('renamed:s3cret-pass').toString('base64')}`);

    // A save from a revision that is no longer current is refused, and deleting every hook leaves none.
    expect((await rejection(owner.actions.set({ projectId: project.id, revisionId: got.revisionId, hooks: [] }))).code).toBe('CONFLICT');
    expect((await owner.actions.set({ projectId: project.id, hooks: [] })).hooks).toEqual([]);
  });

  it('an interrupting hook that fails without messages refuses the registration with 502, storing no identity', async () => {
    const project = await owner.projects.create({ name: 'Hooks down', environment: 'dev' });
    await owner.actions.set({ projectId: project.id, hooks: [hook({ url: `${base}/broken`, canInterrupt: true })] });
    const refused = await register(project.slug, 'nobody@open.example');
    expect(refused.status).toBe(502);
    expect((await owner.identities.list({ projectId: project.id })).identities).toEqual([]);
    expect((await owner.actions.log({ projectId: project.id })).calls).toEqual([expect.objectContaining({ status: 'failed', response_code: 500, interrupted: false })]);
  });

  it('a before hook that interrupts refuses the flow as it is created; a hook whose answer is ignored does not hold the flow up and is still logged', async () => {
    const project = await owner.projects.create({ name: 'Hooks before', environment: 'dev' });
    await owner.actions.set({ projectId: project.id, hooks: [hook({ flow: 'login', timing: 'before', method: null, url: `${base}/deny`, canInterrupt: true })] });
    const created = await fetch(`${stack.url}/project-api/${project.slug}/self-service/login/api`, { headers: { accept: 'application/json' } });
    expect(created.status).toBe(400);
    expect(JSON.stringify(await created.json())).toContain('Sign-ups from this domain are closed.');

    await owner.actions.set({ projectId: project.id, hooks: [hook({ url: `${base}/broken`, ignoreResponse: true })] });
    expect((await register(project.slug, 'quick@open.example')).status).toBe(200);
    await expect.poll(async () => (await owner.actions.log({ projectId: project.id })).calls.map((c) => [c.flow, c.status, c.response_code])).toContainEqual(['registration', 'failed', 500]);
  });

  it('after hooks of settings, recovery and verification: an interrupting one refuses with its message and stores nothing; the others are told once it is stored', async () => {
    const project = await owner.projects.create({ name: 'Hooks after', environment: 'dev' });
    const api = `${stack.url}/project-api/${project.slug}`;
    const email = 'after@open.example';
    const { token } = await signUpToProject(stack.url, project.slug, email);
    const send = async (flowKind: string, headers: Record<string, string>, body: Record<string, unknown>, flowId?: string) => {
      const id = flowId ?? ((await (await fetch(`${api}/self-service/${flowKind}/api`, { headers: { accept: 'application/json', ...headers } })).json()) as { id: string }).id;
      const res = await fetch(`${api}/self-service/${flowKind}?flow=${id}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body) });
      return { id, status: res.status, text: await res.text() };
    };
    const mailedCode = async () => {
      const messages = (await (await fetch(`${stack.url}/local/mailbox/messages?${new URLSearchParams({ to: email, project: project.slug })}`)).json()) as { body: string }[];
      return /\b(\d{6})\b/.exec(messages[0]?.body ?? '')![1]!;
    };
    const session = { 'x-session-token': token };

    // Settings: the profile hook may interrupt (before the change is stored); the flow-wide one is told after.
    await owner.actions.set({
      projectId: project.id,
      hooks: [hook({ flow: 'settings', method: 'profile', url: `${base}/deny`, canInterrupt: true }), hook({ flow: 'settings', method: null, url: `${base}/ok` })],
    });
    const refused = await send('settings', session, { method: 'profile', traits: { email, name: 'Renamed' } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Sign-ups from this domain are closed.');
    expect((await owner.identities.list({ projectId: project.id })).identities[0]!.traits).toMatchObject({ name: 'after' });
    const before = received.length;
    expect((await send('settings', session, { method: 'password', password: 'another-Long-passw0rd-2' })).status).toBe(200);
    const told = received.slice(before).find((r) => r.path === '/ok');
    expect((JSON.parse(told!.body) as { ctx: { identity: { traits: { email: string } } } }).ctx.identity.traits.email).toBe(email);

    // Verification: told once the address is verified.
    await owner.actions.set({ projectId: project.id, hooks: [hook({ flow: 'verification', method: null, url: `${base}/ok` })] });
    const verifying = await send('verification', {}, { method: 'code', email });
    expect(verifying.status).toBe(200);
    expect((await send('verification', {}, { method: 'code', code: await mailedCode() }, verifying.id)).status).toBe(200);

    // Recovery: an interrupting hook refuses it before any session is issued.
    await owner.actions.set({ projectId: project.id, hooks: [hook({ flow: 'recovery', method: null, url: `${base}/deny`, canInterrupt: true })] });
    const recovering = await send('recovery', {}, { method: 'code', email });
    expect(recovering.status).toBe(200);
    const stopped = await send('recovery', {}, { method: 'code', code: await mailedCode() }, recovering.id);
    expect(stopped.status).toBe(400);
    expect(stopped.text).toContain('Sign-ups from this domain are closed.');
    expect(stopped.text).not.toContain('ory_session_token');

    const log = await owner.actions.log({ projectId: project.id });
    expect(log.calls.map((c) => [c.flow, c.timing, c.method, c.status, c.interrupted])).toEqual(
      expect.arrayContaining([
        ['settings', 'after', 'profile', 'failed', true],
        ['settings', 'after', null, 'success', false],
        ['verification', 'after', null, 'success', false],
        ['recovery', 'after', null, 'failed', true],
      ]),
    );
  });

  it('refuses a hook URL that is not on this machine with a 400 that says so, writing nothing', async () => {
    const project = await owner.projects.create({ name: 'Hooks far', environment: 'dev' });
    const before = await owner.actions.get({ projectId: project.id });
    const far = await rejection(owner.actions.set({ projectId: project.id, hooks: [hook({ url: 'http://203.0.113.7/hook' })] }));
    expect(far.code).toBe('BAD_REQUEST');
    expect(far.message).toMatch(/only on this machine \(localhost, 127\.0\.0\.1 or ::1\)/);
    expect(await owner.actions.get({ projectId: project.id })).toEqual(before);
  });

  it('keeps projects apart: another user neither reads nor writes the hooks or their log', async () => {
    const project = await owner.projects.create({ name: 'Hooks private', environment: 'dev' });
    const other = callerFor(deps, (await registerUser(stack.url, { name: 'Hook Stranger' })).cookie);
    // One call at a time: a refusal started early, while the one before is still awaited, would be a
    // rejection nobody handles yet.
    for (const attempt of [
      () => other.actions.get({ projectId: project.id }),
      () => other.actions.log({ projectId: project.id }),
      () => other.actions.set({ projectId: project.id, hooks: [hook({})] }),
    ]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
    expect((await owner.actions.get({ projectId: project.id })).hooks).toEqual([]);
  });
});
