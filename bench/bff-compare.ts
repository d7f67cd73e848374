/**
 * `npx tsx bench/bff-compare.ts`: the BFF's own CPU per request of one or more checkouts, side by side, all
 * against one local stack, so the stack's speed cannot skew the comparison. Name the checkouts with
 * BFF_COMPARE='{"before":"/path/to/old/checkout","after":"."}' (each needs `npm ci` and `npm run build:client`).
 * Rounds alternate between the checkouts: 8 connections, AMOUNT calls of projects.list each (default 4000).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { registerUser } from '../server/test-support/users';

const children: ChildProcess[] = [];

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function startServers(cwd: string, args: string[]): Promise<[ChildProcess, Record<string, string>]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts', ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`bench server ${args[0]} in ${cwd} exited with ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('{"stack"') || line.startsWith('{"bff"')) done([child, JSON.parse(line) as Record<string, string>]);
    });
  });
}

try {
  const [, { stack }] = await startServers('.', ['stack']);
  const checkouts = JSON.parse(process.env.BFF_COMPARE ?? '{"this checkout":"."}') as Record<string, string>;
  const bffs: { name: string; child: ChildProcess; url: string }[] = [];
  for (const [name, dir] of Object.entries(checkouts)) {
    const [child, { bff }] = await startServers(resolve(dir), ['bff', stack!]);
    bffs.push({ name, child, url: `${bff}/api/trpc/projects.list` });
  }
  const user = await registerUser(stack!, { name: 'Bench' });
  for (let i = 0; i < 5; i++) {
    await fetch(`${stack}/projects`, {
      method: 'POST',
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${i}`, environment: 'dev' }),
    });
  }
  const headers = { cookie: user.cookie, accept: 'application/json' };
  const amount = Number(process.env.AMOUNT ?? 4000);
  for (const bff of bffs) await autocannon({ url: bff.url, connections: 8, amount: 1500, headers });
  const totals = new Map(bffs.map((b) => [b.name, { cpu: 0, calls: 0, rps: [] as number[] }]));
  for (let round = 0; round < Number(process.env.ROUNDS ?? 4); round++) {
    for (const bff of bffs) {
      const before = cpuSeconds(bff.child.pid);
      const result = await autocannon({ url: bff.url, connections: 8, amount, headers });
      const total = totals.get(bff.name)!;
      total.cpu += cpuSeconds(bff.child.pid) - before;
      total.calls += result.requests.total;
      total.rps.push(Math.round(result.requests.average));
      if (result.non2xx || result.errors) throw new Error(`${bff.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    }
  }
  for (const [name, total] of totals) {
    console.log(`${name}: BFF CPU ${((total.cpu * 1000) / total.calls).toFixed(3)} ms per call over ${total.calls} calls; req/s per round ${total.rps.join(' ')}`);
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
}
