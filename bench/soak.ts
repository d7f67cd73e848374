/**
 * `npm run soak` (not in CI): two console instances (each with its embedded local stack) on one PostgreSQL
 * database, each pair behind a round-robin balancer, under a mixed load for SOAK_SECONDS (default 600):
 * console reads and writes (tRPC), registration flows, permission checks and client-credentials tokens.
 * Midway one instance is killed with SIGKILL while a console write is under way on it, and started again at once
 * (as a supervisor would); later every PostgreSQL connection of the database is terminated. Reports per window (SOAK_WINDOW_SECONDS, default 60)
 * each kind's calls, errors and p99, and each instance's RSS; at the end the RSS growth of the instance that
 * ran throughout, measured after the first window (the warm-up), and whether every acknowledged write is in
 * the database. The errors the instances log (a write given up, a request answered 500) are counted too.
 *
 * The balancers send a request whose connection failed to the other instance only when that is safe (nothing
 * reached the first, the method is idempotent, or it carries an Idempotency-Key, as every console mutation does
 * here); the clients try again after a 503 with Retry-After, ask for a token again when its answer was lost, and
 * sign in when a sign-up's answer was lost.
 *
 * SOAK_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres): a server where the soak may
 * create and drop its own database. SOAK_USERS (default 4) virtual users; SOAK_PAUSE_MS (default 20) between
 * one user's calls; SOAK_CHAOS=false leaves out the kill and the disruption; SOAK_REDIS_URL shares rate limits;
 * SOAK_PG_RESTART, a shell command (such as `pg_ctlcluster 15 main restart`), restarts the PostgreSQL server at 70%
 * instead of terminating the database's connections.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import pg from 'pg';
import { locationOfOpl } from '../shared/permissions/config';
import { DOCUMENTS_AND_FOLDERS } from '../shared/permissions/templates';
import { loginUser, registerUser, type TestUser } from '../server/test-support/users';
import { percentile } from './engines';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const WINDOW_SECONDS = Number(process.env.SOAK_WINDOW_SECONDS ?? 60);
const USERS = Number(process.env.SOAK_USERS ?? 4);
const PAUSE_MS = Number(process.env.SOAK_PAUSE_MS ?? 20);
const CHAOS = process.env.SOAK_CHAOS !== 'false';
/** A shell command that restarts the PostgreSQL server at 70% (instead of terminating the database's connections). */
const PG_RESTART = process.env.SOAK_PG_RESTART;
const BASE_URL = process.env.SOAK_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

type Kind = 'read' | 'write' | 'flow' | 'check' | 'token';
const KINDS: Kind[] = ['read', 'write', 'flow', 'check', 'token'];
interface Sample {
  at: number;
  kind: Kind;
  ms: number;
  ok: boolean;
  error?: string;
}
const samples: Sample[] = [];
const events: { at: number; what: string }[] = [];
const rss: { at: number; instance: number; bytes: number }[] = [];
const loggedErrors: { at: number; instance: number; msg: string }[] = [];
const start = Date.now();
const elapsed = () => (Date.now() - start) / 1000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Methods a balancer may send again after a failure: repeating them changes nothing more than sending them once (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * A balancer with a health check as plain as can be: each request to the next target in turn. A request whose
 * connection failed before any answer came goes to the next target, as a load balancer does, when that is
 * safe: the target refused the connection (nothing reached it), the method is idempotent, or the request
 * carries an Idempotency-Key (a target that acted on it answers the repeat from its first answer). Any other
 * POST whose connection broke after it was sent is not sent again (the target may have acted on it): it fails
 * with 502. A target whose connection failed is skipped for a second.
 */
async function balancer(
  targets: string[],
): Promise<{ url: string; server: Server; retried: () => number; retriedWrites: () => number; writesInFlight: (target: number) => number }> {
  let next = 0;
  let retried = 0;
  let retriedWrites = 0;
  const inFlight = targets.map(() => 0);
  const downUntil = targets.map(() => 0);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        let index = next++ % targets.length;
        for (let i = 0; i < targets.length && downUntil[index]! > Date.now(); i++) index = next++ % targets.length;
        const target = new URL(targets[index]!);
        let answered = false;
        const write = !IDEMPOTENT.has(req.method ?? '');
        if (write) inFlight[index]!++;
        let counted = write;
        const settle = () => {
          if (counted) inFlight[index]!--;
          counted = false;
        };
        const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          answered = true;
          settle();
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        });
        forward.on('error', (error: NodeJS.ErrnoException) => {
          settle();
          downUntil[index] = Date.now() + 1000;
          const neverReached = error.code === 'ECONNREFUSED';
          if (!answered && (neverReached || IDEMPOTENT.has(req.method ?? '') || req.headers['idempotency-key'] !== undefined) && tries < targets.length * 2) {
            retried++;
            if (!neverReached && !IDEMPOTENT.has(req.method ?? '')) retriedWrites++;
            attempt(tries + 1);
          } else if (!res.headersSent) res.writeHead(502).end(error.code ?? 'upstream error');
          else res.destroy();
        });
        forward.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, retried: () => retried, retriedWrites: () => retriedWrites, writesInFlight: (target) => inFlight[target]! };
}

interface Instance {
  index: number;
  port: number;
  stackPort: number;
  child: ChildProcess;
}

async function startInstance(index: number, port: number, stackPort: number, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), LOCALSTACK_PORT: String(stackPort), HOST: '127.0.0.1', LOCAL_MAILBOX: 'false', LOG_LEVEL: 'error', MUTATION_RATE_LIMIT: '1000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Passed through, and each error the instance logs (pino's level 50 and above) counted for the report.
  for (const [from, to] of [
    [child.stdout!, process.stdout],
    [child.stderr!, process.stderr],
  ] as const) {
    let partial = '';
    from.on('data', (chunk: Buffer) => {
      to.write(chunk);
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const level = /^\{"level":(\d+)/.exec(line)?.[1];
        if (level && Number(level) >= 50) loggedErrors.push({ at: elapsed(), instance: index, msg: /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 120) });
      }
    });
  }
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance ${index} exited (${child.exitCode}) while starting`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  events.push({ at: elapsed(), what: `instance ${index} ready (pid ${child.pid})` });
  return { index, port, stackPort, child };
}

async function rssOf(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : undefined;
}

/** A refusal over HTTP, with what a client needs to decide whether to try again. */
class HttpFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfter: string | null,
  ) {
    super(message);
  }
}

/** Seconds to wait before trying again, when the failure says the call may be tried again (503 with Retry-After). */
function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof HttpFailure) return error.status === 503 && error.retryAfter !== null ? Number(error.retryAfter) : undefined;
  // @ory/client (axios) errors, from the registration flows.
  const response = (error as { response?: { status?: number; headers?: Record<string, unknown> } }).response;
  const after = response?.headers?.['retry-after'];
  return response?.status === 503 && after !== undefined ? Number(after) : undefined;
}

let clientRetries = 0;
/** Runs `fn` again after a 503 with Retry-After (the service said it cannot answer now), as a client should; at most 5 tries. */
async function retrying(fn: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const after = retryAfterOf(error);
      if (after === undefined || attempt >= 5) throw error;
      clientRetries++;
      await new Promise((resolve) => setTimeout(resolve, after * 1000));
    }
  }
}

/** Times a call, its retries after 503 included. */
async function timed(kind: Kind, fn: () => Promise<void>): Promise<void> {
  const t0 = performance.now();
  try {
    await retrying(fn);
    samples.push({ at: elapsed(), kind, ms: performance.now() - t0, ok: true });
  } catch (error) {
    samples.push({ at: elapsed(), kind, ms: performance.now() - t0, ok: false, error: error instanceof Error ? error.message.slice(0, 120) : String(error) });
  }
}

async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new HttpFailure(`${what}: ${res.status} ${text.slice(0, 80)}`, res.status, res.headers.get('retry-after'));
  return text ? JSON.parse(text) : null;
}

const databaseName = `console_soak_${randomBytes(4).toString('hex')}`;
/** A connection to the server's maintenance database (a fresh one each time: a restart ends the last). */
async function adminQuery<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<T>> {
  const admin = new pg.Client({ connectionString: BASE_URL });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    return await admin.query<T>(sql, params);
  } finally {
    await admin.end().catch(() => undefined);
  }
}
await adminQuery(`CREATE DATABASE ${databaseName}`);
const dbUrl = new URL(BASE_URL);
dbUrl.pathname = `/${databaseName}`;
const env: Record<string, string> = { DATABASE_URL: dbUrl.toString(), ...(process.env.SOAK_REDIS_URL ? { REDIS_URL: process.env.SOAK_REDIS_URL } : {}) };

const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
const stackTargets = [`http://127.0.0.1:${ports[2]}`, `http://127.0.0.1:${ports[3]}`];
const stacks = await balancer(stackTargets);
const consoles = await balancer([`http://127.0.0.1:${ports[0]}`, `http://127.0.0.1:${ports[1]}`]);
env.PUBLIC_URL = consoles.url;
const instances: Instance[] = [];
// One after the other the first time: the first runs the migrations (the second would wait on their lock).
instances.push(await startInstance(0, ports[0]!, ports[2]!, env));
instances.push(await startInstance(1, ports[1]!, ports[3]!, env));

const mutationHeaders = { 'x-console-request': '1', 'content-type': 'application/json' };
/** A console mutation with its own Idempotency-Key, as the console's client sends one: safe to send again. */
async function mutate<T>(cookie: string, path: string, input: unknown): Promise<T> {
  const headers = { ...mutationHeaders, cookie, 'idempotency-key': randomUUID() };
  const res = await fetch(`${consoles.url}/api/trpc/${path}`, { method: 'POST', headers, body: JSON.stringify(input) });
  return ((await expectOk(res, path)) as { result: { data: T } }).result.data;
}
async function query<T>(cookie: string, path: string): Promise<T> {
  const res = await fetch(`${consoles.url}/api/trpc/${path}?input=${encodeURIComponent('{}')}`, { headers: { cookie } });
  return ((await expectOk(res, path)) as { result: { data: T } }).result.data;
}

interface User {
  cookie: string;
  base: string;
  key: string;
  client: { id: string; secret: string };
}

async function setUpUser(i: number): Promise<User> {
  const { cookie } = await registerUser(stacks.url, {});
  const workspace = await mutate<{ id: string }>(cookie, 'workspaces.create', { name: `Soak ${i}` });
  const project = await mutate<{ id: string; slug: string }>(cookie, 'projects.create', { name: `Soak ${i}`, environment: 'dev', workspaceId: workspace.id });
  const key = await mutate<{ value: string }>(cookie, 'apiKeys.create', { projectId: project.id, name: 'Soak' });
  const headers = { cookie, 'content-type': 'application/json' };
  await expectOk(
    await fetch(`${stacks.url}/projects/${project.id}`, { method: 'PATCH', headers, body: JSON.stringify([{ op: 'add', path: '/services/permission', value: { config: { namespaces: { location: locationOfOpl(DOCUMENTS_AND_FOLDERS) } } } }]) }),
    'permission rules',
  );
  const base = `${stacks.url}/project-api/${project.slug}`;
  const bearer = { authorization: `Bearer ${key.value}`, 'content-type': 'application/json' };
  await expectOk(await fetch(`${base}/admin/relation-tuples`, { method: 'PUT', headers: bearer, body: JSON.stringify({ namespace: 'Group', object: 'g1', relation: 'members', subject_id: 'alice' }) }), 'relation tuple');
  const client = (await expectOk(
    await fetch(`${base}/admin/clients`, { method: 'POST', headers: bearer, body: JSON.stringify({ client_name: 'Soak', grant_types: ['client_credentials'], scope: 'soak' }) }),
    'oauth2 client',
  )) as { client_id: string; client_secret: string };
  return { cookie, base, key: key.value, client: { id: client.client_id, secret: client.client_secret } };
}

const users = await Promise.all(Array.from({ length: USERS }, (_, i) => setUpUser(i)));
const acknowledged = { workspaces: [] as string[], identities: [] as string[] };
events.push({ at: elapsed(), what: `${USERS} users set up; load starts` });
const loadStart = elapsed();
const loadEnd = loadStart + SECONDS;

async function one(user: User, n: number): Promise<void> {
  const roll = n % 20;
  if (roll < 10) return timed('read', async () => void (await query(user.cookie, n % 2 ? 'workspaces.list' : 'projects.list')));
  if (roll < 13)
    return timed('write', async () => {
      const created = await mutate<{ id: string }>(user.cookie, 'workspaces.create', { name: `Soak write ${randomUUID()}` });
      acknowledged.workspaces.push(created.id);
    });
  if (roll < 17)
    return timed('check', async () => {
      const q = new URLSearchParams({ namespace: 'Group', object: 'g1', relation: 'members', subject_id: n % 2 ? 'alice' : 'bob' });
      const body = (await expectOk(await fetch(`${user.base}/relation-tuples/check/openapi?${q}`, { headers: { authorization: `Bearer ${user.key}` } }), 'check')) as { allowed: boolean };
      if (body.allowed !== (n % 2 === 1)) throw new Error('check answered wrong');
    });
  return timed('token', async () => {
    const basic = Buffer.from(`${encodeURIComponent(user.client.id)}:${encodeURIComponent(user.client.secret)}`).toString('base64');
    const ask = () =>
      fetch(`${user.base}/oauth2/token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=soak' });
    let res = await ask();
    // A token whose answer was lost is asked for again, as OAuth2 clients do: the first one, if issued, goes unused.
    if (res.status === 502 && /^E[A-Z]+$/.test(await res.clone().text())) {
      tokensAskedAgain++;
      res = await ask();
    }
    await expectOk(res, 'token');
  });
}

async function virtualUser(user: User): Promise<void> {
  for (let n = 0; elapsed() < loadEnd; n++) {
    await one(user, n);
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}

/** Whether a call got no answer from an instance: its connection broke (the balancer's 502), or none came. */
function answerLost(error: unknown): boolean {
  const response = (error as { response?: { status?: number; data?: unknown } }).response;
  if (!response) return (error as { isAxiosError?: boolean }).isAxiosError === true;
  return response.status === 502 && typeof response.data === 'string' && /^E[A-Z]+$/.test(response.data);
}

let signUpsConfirmed = 0;
let tokensAskedAgain = 0;

/**
 * Signs a new user up as a person would: when the answer of the sign-up is lost (the instance died with it in
 * flight), the flow's submission cannot be sent again, so the user signs in with what they sent; only when that
 * account does not exist do they sign up again.
 */
async function signUp(): Promise<TestUser> {
  const email = `soak-${randomUUID()}@example.com`;
  const password = `Soak-${randomUUID()}`;
  try {
    return await registerUser(stacks.url, { email, password });
  } catch (error) {
    if (!answerLost(error)) throw error;
    const signedIn = await loginUser(stacks.url, email, password).catch(() => null);
    if (signedIn) {
      signUpsConfirmed++;
      return signedIn;
    }
    return registerUser(stacks.url, { email, password });
  }
}

/** Registration flows (argon2id at its production cost, so fewer): one every two seconds. */
async function flows(): Promise<void> {
  while (elapsed() < loadEnd) {
    await timed('flow', async () => {
      const user = await signUp();
      acknowledged.identities.push(user.identityId);
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function sampleRss(): Promise<void> {
  while (elapsed() < loadEnd) {
    for (const instance of instances) {
      const bytes = await rssOf(instance.child.pid ?? undefined);
      if (bytes) rss.push({ at: elapsed(), instance: instance.index, bytes });
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function chaos(): Promise<void> {
  if (!CHAOS) return;
  const at = async (fraction: number) => {
    const when = loadStart + SECONDS * fraction;
    while (elapsed() < when) await new Promise((resolve) => setTimeout(resolve, 200));
  };
  await at(0.4);
  // The kill lands while a console write is under way on the victim (within 10 s), so that one is cut after it was sent.
  const waitUntil = Date.now() + 10_000;
  while (consoles.writesInFlight(1) === 0 && Date.now() < waitUntil) await new Promise((resolve) => setImmediate(resolve));
  const victim = instances[1]!;
  events.push({ at: elapsed(), what: `kill -9 instance 1 (pid ${victim.child.pid}), ${consoles.writesInFlight(1)} console writes under way on it` });
  victim.child.kill('SIGKILL');
  await new Promise((resolve) => victim.child.once('exit', resolve));
  // Started again at once, as a supervisor does; the balancers skip it until it listens.
  instances[1] = await startInstance(1, victim.port, victim.stackPort, env);
  await at(0.7);
  if (PG_RESTART) {
    // The database server itself restarts: for a few seconds no connection can be made at all.
    const started = elapsed();
    const restart = spawnSync('sh', ['-c', PG_RESTART], { stdio: 'inherit' });
    events.push({ at: started, what: `PostgreSQL restarted (\`${PG_RESTART}\`, exit ${restart.status}, ${(elapsed() - started).toFixed(1)} s)` });
    return;
  }
  const { rows } = await adminQuery<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) t`,
    [databaseName],
  );
  events.push({ at: elapsed(), what: `terminated every PostgreSQL connection of the database (${rows[0]?.n ?? 0})` });
}

await Promise.all([...users.map(virtualUser), flows(), sampleRss(), chaos()]);

// Every acknowledged write is in the database.
const check = new pg.Client({ connectionString: dbUrl.toString() });
await check.connect();
const foundWorkspaces = (await check.query<{ n: number }>('SELECT count(*)::int AS n FROM workspaces WHERE id = ANY($1::uuid[])', [acknowledged.workspaces])).rows[0]!.n;
const foundIdentities = (await check.query<{ n: number }>('SELECT count(*)::int AS n FROM identities WHERE id = ANY($1::uuid[])', [acknowledged.identities])).rows[0]!.n;
// Each write's name is its own: two workspaces of one name are one write done twice.
const doneTwice = (
  await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT name FROM workspaces WHERE name LIKE 'Soak write %' GROUP BY name HAVING count(*) > 1) t`)
).rows[0]!.n;
await check.end();

// The report.
const windows = Math.ceil(SECONDS / WINDOW_SECONDS);
const mb = (b: number | undefined) => (b === undefined ? '   -  ' : `${(b / 1024 / 1024).toFixed(0).padStart(4)} MB`);
const lastRss = (instance: number, until: number) => rss.filter((r) => r.instance === instance && r.at <= until).at(-1)?.bytes;
console.log(`\nSoak: ${SECONDS} s of mixed load, ${USERS} users + 1 flow loop, 2 instances on PostgreSQL; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const e of events) console.log(`  ${(e.at - loadStart).toFixed(0).padStart(5)} s  ${e.what}`);
console.log(`\ncalls/errors/p99 ms per window of ${WINDOW_SECONDS} s`);
console.log(`window  ${KINDS.map((k) => k.padEnd(18)).join('')}all p99   RSS 0    RSS 1`);
for (let w = 0; w < windows; w++) {
  const from = loadStart + w * WINDOW_SECONDS;
  const to = Math.min(loadStart + (w + 1) * WINDOW_SECONDS, loadEnd);
  const inWindow = samples.filter((s) => s.at >= from && s.at < to);
  const cells = KINDS.map((kind) => {
    const of = inWindow.filter((s) => s.kind === kind);
    const ms = of.map((s) => s.ms).sort((a, b) => a - b);
    return `${of.length}/${of.filter((s) => !s.ok).length}/${ms.length ? percentile(ms, 99).toFixed(0) : '-'}`.padEnd(18);
  });
  const all = inWindow.map((s) => s.ms).sort((a, b) => a - b);
  console.log(`${String(w + 1).padStart(6)}  ${cells.join('')}${(all.length ? percentile(all, 99).toFixed(0) : '-').padStart(7)}  ${mb(lastRss(0, to))} ${mb(lastRss(1, to))}`);
}
const errors = samples.filter((s) => !s.ok);
console.log(
  `\nerrors: ${errors.length} of ${samples.length} calls; tried again: ${clientRetries} by the clients after a 503, ${stacks.retried() + consoles.retried()} by the balancers after a failed connection (of them ${stacks.retriedWrites() + consoles.retriedWrites()} writes cut after they were sent, sent again under their Idempotency-Key); ${signUpsConfirmed} sign-ups whose answer was lost found done by signing in, ${tokensAskedAgain} tokens asked for again`,
);
for (const e of errors.slice(0, 20)) console.log(`  ${(e.at - loadStart).toFixed(1).padStart(6)} s  ${e.kind}: ${e.error}`);
console.log(`errors the instances logged: ${loggedErrors.length}`);
for (const e of loggedErrors.slice(0, 20)) console.log(`  ${(e.at - loadStart).toFixed(1).padStart(6)} s  instance ${e.instance}: ${e.msg}`);
const warm = lastRss(0, loadStart + Math.min(WINDOW_SECONDS, SECONDS));
const end = lastRss(0, loadEnd + 1);
if (warm && end) console.log(`RSS of instance 0 (never killed): ${mb(warm)} after warm-up → ${mb(end)} at the end (${(((end - warm) / warm) * 100).toFixed(1)}%)`);
console.log(`acknowledged writes found: workspaces ${foundWorkspaces}/${acknowledged.workspaces.length}, identities ${foundIdentities}/${acknowledged.identities.length}; writes done twice: ${doneTwice}`);

for (const instance of instances) instance.child.kill('SIGTERM');
await Promise.all(instances.map((i) => (i.child.exitCode === null ? new Promise((resolve) => i.child.once('exit', resolve)) : undefined)));
stacks.server.close();
consoles.server.close();
stacks.server.closeAllConnections();
consoles.server.closeAllConnections();
await adminQuery(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
process.exit(foundWorkspaces === acknowledged.workspaces.length && foundIdentities === acknowledged.identities.length && doneTwice === 0 ? 0 : 1);
