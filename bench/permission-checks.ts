/**
 * `npm run bench` (permission checks): a project of the local stack with the documents-and-folders rules and
 * 100,000 relation tuples (1,000,000 on PostgreSQL when one answers), then checks that follow a file to its
 * folder, the folder's viewer group and the group's members, sent with the project's API key and timed over
 * sequential requests: p50, p99 and checks per second. Target (issue: permissions): p99 ≤ 10 ms.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { startLocalStack } from '../localstack/index';
import { locationOfOpl } from '../shared/permissions/config';
import { DOCUMENTS_AND_FOLDERS } from '../shared/permissions/templates';
import { registerUser } from '../server/test-support/users';
import { loadAverage, onEachEngine, percentile } from './engines';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const WARMUP = 50;



interface Result {
  tuples: number;
  /** `cpu`: the process's CPU time per check (client and server share the process), which a busy machine does not inflate as it does wall time. */
  cases: Record<string, { p50: number; p99: number; perSecond: number; cpu: number; load: string }>;
}

async function run(label: string, tuples: number, options: Parameters<typeof startLocalStack>[0]): Promise<Result> {
  console.error(`${label}: starting`);
  const stack = await startLocalStack({ port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 }, ...options });
  try {
    const owner = await registerUser(stack.url, { name: 'Bench owner' });
    const headers = { cookie: owner.cookie, 'content-type': 'application/json' };
    const project = (await (await fetch(`${stack.url}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Checks', environment: 'dev' }) })).json()) as { id: string; slug: string };
    const patch = [{ op: 'add', path: '/services/permission', value: { config: { namespaces: { location: locationOfOpl(DOCUMENTS_AND_FOLDERS) } } } }];
    const patched = await fetch(`${stack.url}/projects/${project.id}`, { method: 'PATCH', headers, body: JSON.stringify(patch) });
    if (!patched.ok) throw new Error(`rules not set: ${patched.status}`);
    // Checks are sent as a Keto client sends them: with the project's API key.
    const created = await fetch(`${stack.url}/projects/${project.id}/tokens`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench' }) });
    const { value: key } = (await created.json()) as { value?: string };
    if (!created.ok || !key) throw new Error(`no API key: ${created.status}`);
    // Per unit of ten tuples: a group with eight members, a folder whose viewers are the group, a file in the folder.
    const units = Math.floor(tuples / 10);
    const started = Date.now();
    const insert = (select: ReturnType<typeof sql>) =>
      stack.db.orm.execute(sql`INSERT INTO relation_tuples (project_id, namespace, object, relation, subject_id, subject_set_namespace, subject_set_object, subject_set_relation, created_at) ${select}`);
    await insert(sql`SELECT ${project.id}::uuid, 'Group', 'g' || i, 'members', 'user-' || i || '-' || m, NULL, NULL, NULL, now() FROM generate_series(1, ${units}) i, generate_series(1, 8) m`);
    await insert(sql`SELECT ${project.id}::uuid, 'Folder', 'd' || i, 'viewers', NULL, 'Group', 'g' || i, 'members', now() FROM generate_series(1, ${units}) i`);
    await insert(sql`SELECT ${project.id}::uuid, 'File', 'f' || i, 'parents', NULL, 'Folder', 'd' || i, '', now() FROM generate_series(1, ${units}) i`);
    await stack.db.orm.execute(sql`ANALYZE relation_tuples`);
    const seconds = (Date.now() - started) / 1000;
    console.error(`  seeded ${(units * 10).toLocaleString('en-US')} tuples in ${seconds.toFixed(1)} s (${Math.round((units * 10) / seconds).toLocaleString('en-US')} tuples/s; load average ${loadAverage()})`);

    const base = `${stack.url}/project-api/${project.slug}`;
    const pick = () => 1 + Math.floor(Math.random() * units);
    const check = (namespace: string, object: string, relation: string, subject: string) =>
      `${base}/relation-tuples/check/openapi?${new URLSearchParams({ namespace, object, relation, subject_id: subject })}`;
    const cases: Record<string, { url: () => string; allowed: boolean }> = {
      'direct: a group member': { url: () => { const i = pick(); return check('Group', `g${i}`, 'members', `user-${i}-3`); }, allowed: true },
      'file → folder → group (allowed)': { url: () => { const i = pick(); return check('File', `f${i}`, 'view', `user-${i}-5`); }, allowed: true },
      'file → folder → group (denied)': { url: () => { const i = pick(); return check('File', `f${i}`, 'view', `user-${i + 1}-5`); }, allowed: false },
    };
    const result: Result = { tuples: units * 10, cases: {} };
    for (const [name, { url, allowed }] of Object.entries(cases)) {
      const samples: number[] = [];
      const t0all = performance.now();
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const t0 = performance.now();
        const res = await fetch(url(), { headers: { authorization: `Bearer ${key}` } });
        const body = (await res.json()) as { allowed?: boolean };
        if (res.status !== 200 || body.allowed !== allowed) throw new Error(`${label} ${name}: ${res.status} ${JSON.stringify(body)}`);
        if (i >= WARMUP) samples.push(performance.now() - t0);
      }
      const seconds = (performance.now() - t0all) / 1000;
      const cpuUsed = process.cpuUsage(cpu0);
      const cpu = (cpuUsed.user + cpuUsed.system) / 1000 / (WARMUP + REQUESTS);
      samples.sort((a, b) => a - b);
      result.cases[name] = { p50: percentile(samples, 50), p99: percentile(samples, 99), perSecond: (WARMUP + REQUESTS) / seconds, cpu, load: loadAverage() };
      console.error(`  ${name}: p50 ${result.cases[name]!.p50.toFixed(1)} ms, p99 ${result.cases[name]!.p99.toFixed(1)} ms, ${result.cases[name]!.perSecond.toFixed(0)} checks/s, ${cpu.toFixed(2)} ms CPU per check (load average ${result.cases[name]!.load})`);
    }
    return result;
  } finally {
    await stack.close();
  }
}

async function main() {
  const results = await onEachEngine((engine, label, options) =>
    run(label, engine === 'PGlite' ? Number(process.env.BENCH_TUPLES ?? 100_000) : Number(process.env.BENCH_PG_TUPLES ?? 1_000_000), options),
  );
  console.log(`\nPermission checks, ${REQUESTS} sequential requests per row over HTTP (target: p99 ≤ 10 ms)`);
  for (const [engine, result] of Object.entries(results)) {
    console.log(`${engine}, ${result.tuples.toLocaleString('en-US')} tuples: p50 / p99 (ms), checks/s, CPU per check (ms), load average`);
    for (const [name, t] of Object.entries(result.cases)) console.log(`  ${name} | ${t.p50.toFixed(1)} / ${t.p99.toFixed(1)} | ${t.perSecond.toFixed(0)} | ${t.cpu.toFixed(2)} | ${t.load}`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
