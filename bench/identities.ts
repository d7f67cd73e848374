/**
 * `npm run bench` (second part): 100,000 identities in one project of the local stack, then a page of the
 * list, a page deep into it, a search by email prefix and a search by domain on the project's admin API, each
 * timed over sequential requests; on embedded PGlite and, when one answers, on PostgreSQL, side by side.
 * Target (issue: scale): p99 ≤ 50 ms for listing a page and for searching by email prefix.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { startLocalStack, type LocalStack } from '../localstack/index';
import { encodePageToken } from '../localstack/kernel/page-token';
import { registerUser } from '../server/test-support/users';
import { loadAverage, onEachEngine, percentile } from './engines';

/** Identities per engine: `BENCH_IDENTITIES` on PGlite (in memory), `BENCH_PG_IDENTITIES` on PostgreSQL. */
const COUNTS = { PGlite: Number(process.env.BENCH_IDENTITIES ?? 100_000), PostgreSQL: Number(process.env.BENCH_PG_IDENTITIES ?? 1_000_000) };
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;



async function seeded(stack: LocalStack, count: number): Promise<{ base: string; cookie: string; middleId: string }> {
  const owner = await registerUser(stack.url, { name: 'Bench owner' });
  const res = await fetch(`${stack.url}/projects`, {
    method: 'POST',
    headers: { cookie: owner.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Identities', environment: 'dev' }),
  });
  const project = (await res.json()) as { id: string; slug: string };
  const nid = project.id;
  const started = Date.now();
  // The identities across 50 domains, each with a password credential whose identifier is its email; then
  // vacuumed and analysed, as autovacuum leaves a table that has settled.
  await stack.db.orm.execute(sql`
    INSERT INTO identities (id, nid, schema_id, traits, state, state_changed_at, created_at, updated_at)
    SELECT gen_random_uuid(), ${nid}::uuid, 'default',
           jsonb_build_object('email', 'user-' || i || '@domain' || (i % 50) || '.example', 'name', 'User ' || i),
           'active', now(), now(), now()
    FROM generate_series(1, ${count}) AS i`);
  await stack.db.orm.execute(sql`
    INSERT INTO identity_credentials (nid, identity_id, type, identifier, secret, created_at, updated_at)
    SELECT nid, id, 'password', traits->>'email', '', now(), now() FROM identities WHERE nid = ${nid}::uuid`);
  await stack.db.orm.execute(sql`VACUUM ANALYZE identities`);
  await stack.db.orm.execute(sql`VACUUM ANALYZE identity_credentials`);
  const answer = (await stack.db.orm.execute(sql`SELECT id FROM identities WHERE nid = ${nid}::uuid ORDER BY id OFFSET ${Math.floor(count / 2)} LIMIT 1`)) as unknown as { rows: { id: string }[] };
  const middleId = answer.rows[0]!.id;
  const seconds = (Date.now() - started) / 1000;
  console.error(`  seeded ${count.toLocaleString('en-US')} identities with their credentials in ${seconds.toFixed(1)} s (${Math.round(count / seconds).toLocaleString('en-US')} identities/s; load average ${loadAverage()})`);
  return { base: `${stack.url}/project-api/${project.slug}`, cookie: owner.cookie, middleId };
}

type Timings = Record<string, { p50: number; p99: number; load: string }>;

async function run(label: string, count: number, options: Parameters<typeof startLocalStack>[0]): Promise<Timings> {
  console.error(`${label}: starting`);
  const stack = await startLocalStack({ port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 }, ...options });
  try {
    const { base, cookie, middleId } = await seeded(stack, count);
    const cases: Record<string, () => string> = {
      'list, first page': () => `${base}/admin/identities?page_size=25`,
      'list, a page in the middle': () => `${base}/admin/identities?page_size=25&page_token=${encodePageToken({ id: middleId })}`,
      'search by email prefix': () => `${base}/admin/identities?page_size=25&preview_credentials_identifier_similar=user-${1 + Math.floor(Math.random() * count)}@`,
      'search by domain': () => `${base}/admin/identities?page_size=25&preview_credentials_identifier_similar=@domain${Math.floor(Math.random() * 50)}.example`,
    };
    const timings: Timings = {};
    for (const [name, url] of Object.entries(cases)) {
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const t0 = performance.now();
        const res = await fetch(url(), { headers: { cookie } });
        const body = (await res.json()) as unknown[];
        const ms = performance.now() - t0;
        if (!res.ok || !Array.isArray(body) || body.length === 0) throw new Error(`${label} ${name}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        if (i >= WARMUP) samples.push(ms);
      }
      samples.sort((a, b) => a - b);
      timings[name] = { p50: percentile(samples, 50), p99: percentile(samples, 99), load: loadAverage() };
      console.error(`  ${name}: p50 ${timings[name]!.p50.toFixed(1)} ms, p99 ${timings[name]!.p99.toFixed(1)} ms (load average ${timings[name]!.load})`);
    }
    return timings;
  } finally {
    await stack.close();
  }
}

async function main() {
  const results = (await onEachEngine((engine, label, options) => run(label, COUNTS[engine], options))) as Record<string, Timings>;
  const engines = Object.keys(results) as (keyof typeof COUNTS)[];
  console.log(`\nIdentities in one project, ${REQUESTS} sequential requests per row (target: p99 ≤ 50 ms)`);
  console.log(['', ...engines.map((e) => `${e}, ${COUNTS[e].toLocaleString('en-US')}: p50 / p99 (ms) [load average]`)].join(' | '));
  for (const name of Object.keys(results[engines[0]!]!)) {
    console.log([name, ...engines.map((e) => `${results[e]![name]!.p50.toFixed(1)} / ${results[e]![name]!.p99.toFixed(1)} [${results[e]![name]!.load}]`)].join(' | '));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
