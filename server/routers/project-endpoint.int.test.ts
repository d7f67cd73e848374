import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSnippets, sdkSnippets } from '../../shared/domain/sdk-snippets';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

const run = promisify(execFile);

let stack: TestStack;
let deps: AppDeps;
let cookie: string;
let projectId: string;
let slug: string;
let dir: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  cookie = (await registerUser(stack.url)).cookie;
  const project = await callerFor(deps, cookie).projects.create({ name: 'Snippets', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
  // The snippet runs from a directory of its own that resolves packages from the project's node_modules.
  dir = await mkdtemp(join(tmpdir(), 'console-snippet-'));
  await symlink(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  await stack?.close();
});

describe('projects.endpoint', () => {
  it('answers where the project answers on the embedded local stack, not a cloud host', async () => {
    const { apiUrl } = await callerFor(deps, cookie).projects.endpoint({ projectId });
    expect(apiUrl).toBe(`${stack.url}/project-api/${slug}`);
    const whoami = await fetch(`${apiUrl}/sessions/whoami`);
    expect(whoami.status).toBe(401);
  });

  it('follows the deployment’s PROJECT_API_URL', async () => {
    const cloud = testDeps(stack.url, { projectApiUrl: 'https://{slug}.projects.example.com' });
    expect(await callerFor(cloud, cookie).projects.endpoint({ projectId })).toEqual({ apiUrl: `https://${slug}.projects.example.com` });
  });

  it('answers null when the deployment has no project API', async () => {
    const none = testDeps(stack.url, { projectApiUrl: undefined });
    expect(await callerFor(none, cookie).projects.endpoint({ projectId })).toEqual({ apiUrl: null });
  });
});

describe('the Get started snippets run as shown against the endpoint', () => {
  it('TypeScript: reaches the project API and reports that nobody is signed in', async () => {
    const { apiUrl } = await callerFor(deps, cookie).projects.endpoint({ projectId });
    const file = join(dir, 'who-is-signed-in.mts');
    await writeFile(file, sdkSnippets(apiUrl ?? '').typescript);
    const { stdout } = await run(resolve('node_modules/.bin/tsx'), [file], { cwd: dir, timeout: 30_000 });
    expect(stdout.trim()).toBe('Nobody is signed in');
  });

  it('TypeScript: a wrong endpoint fails instead of passing silently', async () => {
    const file = join(dir, 'wrong-endpoint.mts');
    await writeFile(file, sdkSnippets(`${stack.url}/project-api/no-such-project`).typescript);
    await expect(run(resolve('node_modules/.bin/tsx'), [file], { cwd: dir, timeout: 30_000 })).rejects.toThrow();
  });

  it('curl: the whoami call answers Ory’s 401 error', async () => {
    const { apiUrl } = await callerFor(deps, cookie).projects.endpoint({ projectId });
    const { stdout } = await run('sh', ['-c', sdkSnippets(apiUrl ?? '').curl], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 401 } });
  });
});

describe('the Connect page snippets run as shown against the endpoint', () => {
  it('TypeScript: the SDK starts a login flow that the project then serves', async () => {
    const { apiUrl } = await callerFor(deps, cookie).projects.endpoint({ projectId });
    const file = join(dir, 'start-login.mts');
    await writeFile(file, connectSnippets(apiUrl ?? '').typescript.code);
    const { stdout } = await run(resolve('node_modules/.bin/tsx'), [file], { cwd: dir, timeout: 30_000 });
    const [, flowId] = /^Login flow ([0-9a-f-]{36}) expires at \S+$/.exec(stdout.trim()) ?? [];
    expect(flowId, stdout).toBeDefined();
    const flow = await fetch(`${apiUrl}/self-service/login/flows?id=${flowId}`);
    expect(flow.status).toBe(200);
    expect(await flow.json()).toMatchObject({ id: flowId, type: 'api' });
  });

  it('cURL: answers the login flow with its form', async () => {
    const { apiUrl } = await callerFor(deps, cookie).projects.endpoint({ projectId });
    const { stdout } = await run('sh', ['-c', connectSnippets(apiUrl ?? '').curl.code], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toMatchObject({ type: 'api', ui: { nodes: expect.any(Array) } });
  });
});
