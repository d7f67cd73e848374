/**
 * `npm run bench` (metrics): one project of the local stack with 1,000,000 recorded events over 90 days on
 * PostgreSQL (100,000 on PGlite), then the queries of the activity page over HTTP, each timed over sequential
 * requests: the 30-day daily series of every chart (sign-ups, sign-ins, sessions, tokens, permission checks),
 * sign-ins by method, daily active users, sign-ins by country, and the first page of the event list (plain and
 * filtered by an attribute). Target (issue: scale): a 30-day series ≤ 100 ms.
 */
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { setPlan } from '../localstack/billing/quota';
import { startLocalStack, type LocalStack } from '../localstack/index';
import { registerUser } from '../server/test-support/users';
import { loadAverage, onEachEngine, percentile } from './engines';

/** Events per engine: `BENCH_EVENTS` on PGlite (in memory), `BENCH_PG_EVENTS` on PostgreSQL. */
const COUNTS = { PGlite: Number(process.env.BENCH_EVENTS ?? 100_000), PostgreSQL: Number(process.env.BENCH_PG_EVENTS ?? 1_000_000) };
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const WARMUP = 10;
const DAY = 86_400_000;
/** How far back the seeded events reach (the Growth plan reads 90 days back). */
const SPAN_DAYS = 90;

/*
 * The mix of a busy project: per 100 events, 40 permission checks, 20 OAuth2 tokens, 12 sessions started,
 * 10 sign-ins, 3 failed sign-ins, 5 sign-ups, 3 sessions revoked, and 7 of the rarer kinds.
 */
const MIX: [type: string, share: number][] = [
  ['PermissionChecked', 40],
  ['OAuth2TokenIssued', 20],
  ['SessionIssued', 12],
  ['LoginSucceeded', 10],
  ['RegistrationSucceeded', 5],
  ['LoginFailed', 3],
  ['SessionRevoked', 3],
  ['SettingsSucceeded', 2],
  ['VerificationSucceeded', 2],
  ['RecoverySucceeded', 1],
  ['CourierMessageSent', 1],
  ['IdentityCreated', 1],
];

async function seeded(stack: LocalStack, count: number): Promise<{ base: string; cookie: string; now: number }> {
  const owner = await registerUser(stack.url, { name: 'Bench owner' });
  const headers = { cookie: owner.cookie, 'content-type': 'application/json' };
  const project = (await (await fetch(`${stack.url}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Events', environment: 'dev' }) })).json()) as { id: string };
  // Growth keeps 90 days of metrics: a 30-day range is read whole.
  await setPlan(stack.db, { kind: 'project', project: { id: project.id, workspace_id: null } }, 'Growth@0');
  const started = Date.now();
  // Event i has type MIX[k] where i mod 100 falls in k's share; times spread evenly over the span, newest now.
  const cases = [];
  let upTo = 0;
  for (const [type, share] of MIX) {
    cases.push(sql`WHEN i % 100 < ${upTo + share} THEN ${type}`);
    upTo += share;
  }
  const type = sql`CASE ${sql.join(cases, sql` `)} ELSE 'IdentityDeleted' END`;
  await stack.db.orm.execute(sql`
    INSERT INTO project_events (id, nid, type, occurred_at, identity_id, attributes)
    SELECT gen_random_uuid(), ${project.id}::uuid, e.type, now() - (i * ${(SPAN_DAYS * DAY) / count}::float8 * interval '1 millisecond'), e.identity,
           jsonb_strip_nulls(jsonb_build_object(
             'identity_id', e.identity::text,
             'method', CASE WHEN e.type IN ('LoginSucceeded', 'LoginFailed', 'RegistrationSucceeded', 'SessionIssued')
                            THEN (ARRAY['password', 'oidc', 'code', 'passkey', 'webauthn'])[1 + i % 5] END,
             'aal', CASE WHEN e.type = 'LoginSucceeded' THEN 'aal1' END,
             'country', CASE WHEN e.type IN ('LoginSucceeded', 'LoginFailed', 'RegistrationSucceeded') THEN (ARRAY['DE', 'US', 'FR', 'JP', 'BR', 'IN', 'GB'])[1 + i % 7] END,
             'user_agent', CASE WHEN e.type IN ('LoginSucceeded', 'LoginFailed', 'RegistrationSucceeded') THEN (ARRAY['Chrome', 'Firefox', 'Safari', 'Edge'])[1 + i % 4] END,
             'client_id', CASE WHEN e.type = 'OAuth2TokenIssued' THEN 'client-' || (i % 20) END,
             'grant_type', CASE WHEN e.type = 'OAuth2TokenIssued' THEN 'client_credentials' END,
             'namespace', CASE WHEN e.type = 'PermissionChecked' THEN (ARRAY['File', 'Folder', 'Group'])[1 + i % 3] END,
             'relation', CASE WHEN e.type = 'PermissionChecked' THEN 'view' END,
             'allowed', CASE WHEN e.type = 'PermissionChecked' THEN (i % 4 > 0)::text END))
    FROM generate_series(1, ${count}) AS i,
         LATERAL (SELECT ${type} AS type,
                         CASE WHEN ${type} IN ('LoginSucceeded', 'LoginFailed', 'RegistrationSucceeded', 'SessionIssued', 'SessionRevoked', 'SettingsSucceeded')
                              THEN ('00000000-0000-4000-8000-' || lpad(to_hex(i % 50000), 12, '0'))::uuid END AS identity) AS e`);
  // Vacuumed and analysed, as autovacuum leaves a table that has settled.
  await stack.db.orm.execute(sql`VACUUM ANALYZE project_events`);
  const seconds = (Date.now() - started) / 1000;
  console.error(`  seeded ${count.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s (${Math.round(count / seconds).toLocaleString('en-US')} events/s; load average ${loadAverage()})`);
  return { base: `${stack.url}/projects/${project.id}`, cookie: owner.cookie, now: Date.now() };
}

type Timings = Record<string, { p50: number; p99: number; load: string }>;

async function run(label: string, count: number, options: Parameters<typeof startLocalStack>[0]): Promise<Timings> {
  console.error(`${label}: starting`);
  const stack = await startLocalStack({ port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 }, ...options });
  try {
    const { base, cookie, now } = await seeded(stack, count);
    // The activity page's window: it ends at the next whole minute.
    const to = Math.ceil((now + 1) / 60_000) * 60_000;
    const range = (days: number) => `from=${new Date(to - days * DAY).toISOString()}&to=${new Date(to).toISOString()}`;
    const series = (type: string, days: number, resolution: string) => () => ({ url: `${base}/metrics?event_type=${type}&resolution=${resolution}&${range(days)}` });
    const list = (filters: unknown[]) => () => ({
      url: `${base}/metrics/events`,
      init: { method: 'POST', body: JSON.stringify({ from: new Date(to - 30 * DAY).toISOString(), to: new Date(to).toISOString(), page_size: 25, filters }) },
    });
    const cases: Record<string, () => { url: string; init?: RequestInit }> = {
      '30-day series, daily: sign-ups': series('RegistrationSucceeded', 30, '1d'),
      '30-day series, daily: sign-ins': series('LoginSucceeded', 30, '1d'),
      '30-day series, daily: sessions started': series('SessionIssued', 30, '1d'),
      '30-day series, daily: OAuth2 tokens': series('OAuth2TokenIssued', 30, '1d'),
      '30-day series, daily: permission checks': series('PermissionChecked', 30, '1d'),
      '30-day series, hourly: permission checks': series('PermissionChecked', 30, '1h'),
      '24-hour series, hourly: permission checks': series('PermissionChecked', 1, '1h'),
      '90-day series, daily: permission checks': series('PermissionChecked', 90, '1d'),
      '30 days: sign-ins by method': () => ({ url: `${base}/metrics/attributes?attribute=method&event_type=LoginSucceeded&${range(30)}` }),
      '30 days: daily active users': () => ({ url: `${base}/metrics/active_users?${range(30)}` }),
      '30 days: sign-ins by country': () => ({ url: `${base}/metrics/sessions?${range(30)}` }),
      'event list, first page': list([]),
      'event list, filtered by method': list([{ attribute: 'method', condition: 'equals', value: 'passkey' }]),
    };
    const timings: Timings = {};
    for (const [name, request] of Object.entries(cases)) {
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const { url, init } = request();
        const t0 = performance.now();
        const res = await fetch(url, { ...init, headers: { cookie, accept: 'application/json', ...(init?.body ? { 'content-type': 'application/json' } : {}) } });
        const body = (await res.json()) as { data?: { count?: number }[]; events?: unknown[] };
        const ms = performance.now() - t0;
        const rows = body.data ?? body.events ?? [];
        if (!res.ok || rows.length === 0) throw new Error(`${label} ${name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
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
  console.log(`\nMetrics over events of one project spread over ${SPAN_DAYS} days, ${REQUESTS} sequential requests per row (target: a 30-day series ≤ 100 ms)`);
  console.log(['', ...engines.map((e) => `${e}, ${COUNTS[e].toLocaleString('en-US')} events: p50 / p99 (ms) [load average]`)].join(' | '));
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
