import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser } from './test-support/users';

/** server/main.ts started as its own process (node with tsx's loader), with its own environment and captured output. */
interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  // Each child leads its own process group: end the whole group it started.
  for (const child of running.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>): Started {
  const clean = { ...process.env };
  for (const name of ['BACKOFFICE_URL', 'ORY_SDK_URL', 'DATABASE_URL', 'PORT', 'HOST', 'PUBLIC_URL', 'DATA_DIR', 'LOCALSTACK_PORT']) delete clean[name];
  // node with tsx's loader, as one process: npx and the tsx command put two more node processes in front of it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: process.cwd(), env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.push(child);
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

/**
 * The process running server/main.ts, from its first log line (the child itself): the one a supervisor
 * signals (the Docker image runs `node dist/server/main.js` as PID 1).
 */
async function serverPid(started: Started, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = started.output().split('\n').find((l) => l.includes('starting the console'));
    if (line) return (JSON.parse(line) as { pid: number }).pid;
    if (started.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no start-up line:\n${started.output()}`);
}

/** Resolves once the child has written `text` at or after offset `from` of its output. */
function outputShows(started: Started, text: string, from: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (started.output().includes(text, from)) done(resolve);
      else if (started.child.exitCode !== null) done(() => reject(new Error(`exited before "${text}":\n${started.output()}`)));
    };
    const done = (settle: () => void) => {
      started.child.stdout!.off('data', check);
      started.child.stderr!.off('data', check);
      started.child.off('exit', check);
      settle();
    };
    started.child.stdout!.on('data', check);
    started.child.stderr!.on('data', check);
    started.child.on('exit', check);
    check();
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(port: number, started: Started, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no /healthz within ${timeoutMs} ms:\n${started.output()}`);
}

describe('server/main.ts', () => {
  it('on SIGTERM finishes the request in flight, closes the local stack and exits 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'console-main-'));
    dirs.push(dataDir);
    const port = await freePort();
    const metricsPort = await freePort();
    const started = start({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOCALSTACK_PORT: '0', LOG_LEVEL: 'info', METRICS_PORT: String(metricsPort) });
    const pid = await serverPid(started);
    await waitForHealth(port, started, 90_000);
    // The embedded stack runs in a thread of its own: its series join the console's on the metrics port, Node's own once.
    const metricsText = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metricsText).toMatch(/^localstack_courier_queued_messages \d+$/m);
    expect(metricsText.match(/^nodejs_heap_size_total_bytes /gm)).toHaveLength(1);
    // A real user, signed up through the console's own /.ory proxy, so the request below reaches the upstreams.
    const { cookie } = await registerUser(`http://127.0.0.1:${port}/.ory`, {});

    // A mutation whose body is still arriving when SIGTERM lands.
    const body = JSON.stringify({ name: 'In flight' });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/trpc/workspaces.create', headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-console-request': '1' } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      // SIGTERM once the server has the request, the rest of the body once it is shutting down.
      const seen = started.output().length;
      void (async () => {
        await outputShows(started, '/api/trpc/workspaces.create', seen);
        process.kill(pid, 'SIGTERM');
        await outputShows(started, 'shutting down', seen);
        req.end(body.slice(5));
      })().catch(reject);
    });
    const { status, text } = await answer;
    expect(status, text).toBe(200);
    expect(JSON.parse(text).result.data.name).toBe('In flight');
    expect(await started.exited).toBe(0);
    expect(started.output()).toContain('shutting down');
    expect(started.output()).not.toContain('shutdown failed');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 120_000);

  it('on SIGTERM during a slow start (a fresh data directory) lets the start settle, then exits 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'console-main-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOCALSTACK_PORT: '0' };
    const first = start(env);
    process.kill(await serverPid(first), 'SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('shutting down');
    // The data directory it left behind opens again.
    const second = start(env);
    await waitForHealth(port, second, 90_000);
    process.kill(await serverPid(second), 'SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);

  it.each([
    ['PORT', 'abc'],
    ['HOST', 'http://0.0.0.0'],
    ['LOG_LEVEL', 'loud'],
    ['BACKOFFICE_URL', 'http://127.0.0.1:1'],
  ])('stops start-up on %s=%s with a message naming the variable', async (name, value) => {
    const started = start({ [name]: value, DATA_DIR: join(tmpdir(), 'console-never-created') });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain(name);
  }, 60_000);
});
