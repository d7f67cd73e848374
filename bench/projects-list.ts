/**
 * `npm run bench`: projects.list through the BFF (tRPC over HTTP) against the same call made directly on
 * the local stack, with a bare Fastify pass-through proxy as the floor; 32 connections, ~10 s each.
 * Target: the BFF keeps ≥ 50% of the direct throughput and adds ≤ 2 ms at p50.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { registerUser } from '../server/test-support/users';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = 2;
const PROJECTS = 5;

const children: ChildProcess[] = [];
const TICKS_PER_S = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return Number.NaN;
  }
}

function startServers(args: string[]): Promise<Record<string, string>> {
  // BENCH_CPU_PROF=<dir>: each server process writes its threads' CPU profiles to <dir>/stack and <dir>/bff when the
  // benchmark ends (open them in DevTools; the main thread's is the largest).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}/${args[0]}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'bench/servers.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server ${args[0]} exited with ${code}`)));
    // The first line that is the servers' JSON announcement (a log line may come before it).
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{"stack"') && !line.startsWith('{"bff"')) return;
      lines.close();
      resolve(JSON.parse(line) as Record<string, string>);
    });
  });
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU milliseconds per request spent in the local stack and in the BFF/floor process. */
  stackCpuMs?: number;
  proxyCpuMs?: number;
}

async function measure(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers });
  const [stackPid, proxyPid] = children.map((c) => c.pid);
  const before = [cpuSeconds(stackPid), cpuSeconds(proxyPid)];
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const total = result.requests.total;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    stackCpuMs: ((cpuSeconds(stackPid) - before[0]!) * 1000) / total,
    proxyCpuMs: ((cpuSeconds(proxyPid) - before[1]!) * 1000) / total,
  };
}

async function main(): Promise<void> {
  const { stack } = await startServers(['stack']);
  const { bff, floor } = await startServers(['bff', stack!]);
  const user = await registerUser(stack!, { name: 'Bench' });
  for (let i = 0; i < PROJECTS; i++) {
    const res = await fetch(`${stack}/projects`, {
      method: 'POST',
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${i}`, environment: 'dev' }),
    });
    if (res.status !== 201) throw new Error(`could not create a project: ${res.status} ${await res.text()}`);
  }
  const headers = { cookie: user.cookie, accept: 'application/json' };
  const check = await fetch(`${bff}/api/trpc/projects.list`, { headers });
  const listed = ((await check.json()) as { result?: { data?: unknown[] } }).result?.data?.length;
  if (listed !== PROJECTS) throw new Error(`the BFF listed ${listed} projects, expected ${PROJECTS}`);

  console.log(`projects.list, ${CONNECTIONS} connections, ${DURATION_S} s each (after ${WARMUP_S} s warm-up), ${PROJECTS} projects`);
  console.log(`${availableParallelism()} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine skews the figures)\n`);
  // The local stack gets faster as it warms up: warm it first, and measure direct before and after the
  // others so the comparison is not skewed by the order.
  await autocannon({ url: `${stack}/projects`, connections: CONNECTIONS, duration: 5, headers });
  const directBefore = await measure('direct, before', `${stack}/projects`, headers);
  const floorFigures = await measure('floor (bare Fastify pass-through proxy)', `${floor}/projects`, headers);
  const through = await measure('BFF (tRPC GET /api/trpc/projects.list)', `${bff}/api/trpc/projects.list`, headers);
  const directAfter = await measure('direct, after', `${stack}/projects`, headers);
  const direct: Figures = {
    name: 'direct (GET /projects on the local stack, mean of before/after)',
    rps: (directBefore.rps + directAfter.rps) / 2,
    p50: (directBefore.p50 + directAfter.p50) / 2,
    p99: (directBefore.p99 + directAfter.p99) / 2,
    errors: directBefore.errors + directAfter.errors,
  };

  const rows = [directBefore, directAfter, direct, floorFigures, through];
  const width = Math.max(...rows.map((r) => r.name.length));
  const cpu = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(2));
  console.log(`${'target'.padEnd(width)}  ${'req/s'.padStart(8)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  errors  CPU ms/req: stack  proxy`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(width)}  ${r.rps.toFixed(0).padStart(8)}  ${r.p50.toFixed(1).padStart(7)}  ${r.p99.toFixed(1).padStart(7)}  ${String(r.errors).padStart(6)}  ${cpu(r.stackCpuMs).padStart(17)}  ${cpu(r.proxyCpuMs).padStart(5)}`,
    );
  }
  const ratio = through.rps / direct.rps;
  const addedP50 = through.p50 - direct.p50;
  console.log('');
  console.log(`BFF / direct throughput: ${(ratio * 100).toFixed(1)}%  (target ≥ 50%)  ${ratio >= 0.5 ? 'OK' : 'MISSED'}`);
  console.log(`BFF − direct p50:        ${addedP50.toFixed(1)} ms  (target ≤ 2 ms)  ${addedP50 <= 2 ? 'OK' : 'MISSED'}`);
  console.log(`floor / direct throughput: ${((floorFigures.rps / direct.rps) * 100).toFixed(1)}%, floor − direct p50: ${(floorFigures.p50 - direct.p50).toFixed(1)} ms`);
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGTERM');
}
