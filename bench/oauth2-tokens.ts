/**
 * `npm run bench` (OAuth2 tokens): a project of the local stack with one client-credentials client, then token
 * requests (`POST /oauth2/token`, grant client_credentials, secret in the Basic header) timed over sequential
 * requests, with opaque and with JWT access tokens: p50, p99 and tokens per second, on PGlite and on PostgreSQL
 * when one answers.
 */
import pino from 'pino';
import { startLocalStack } from '../localstack/index';
import { registerUser } from '../server/test-support/users';
import { loadAverage, onEachEngine, percentile } from './engines';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const WARMUP = 50;



type Timing = { p50: number; p99: number; perSecond: number; load: string };

async function run(label: string, options: Parameters<typeof startLocalStack>[0]): Promise<Record<string, Timing>> {
  console.error(`${label}: starting`);
  const stack = await startLocalStack({ port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 }, ...options });
  try {
    const owner = await registerUser(stack.url, { name: 'Bench owner' });
    const headers = { cookie: owner.cookie, 'content-type': 'application/json' };
    const project = (await (await fetch(`${stack.url}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Tokens', environment: 'dev' }) })).json()) as { id: string; slug: string };
    const base = `${stack.url}/project-api/${project.slug}`;
    const client = async (strategy: 'opaque' | 'jwt') => {
      const res = await fetch(`${base}/admin/clients`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ client_name: `Bench ${strategy}`, grant_types: ['client_credentials'], scope: 'bench', access_token_strategy: strategy }),
      });
      if (res.status !== 201) throw new Error(`client not created: ${res.status} ${await res.text()}`);
      const { client_id, client_secret } = (await res.json()) as { client_id: string; client_secret: string };
      return `Basic ${Buffer.from(`${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret)}`).toString('base64')}`;
    };
    const result: Record<string, Timing> = {};
    for (const strategy of ['opaque', 'jwt'] as const) {
      const authorization = await client(strategy);
      const samples: number[] = [];
      const t0all = performance.now();
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${base}/oauth2/token`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials&scope=bench',
        });
        const body = (await res.json()) as { access_token?: string };
        if (res.status !== 200 || !body.access_token) throw new Error(`${label} ${strategy}: ${res.status} ${JSON.stringify(body)}`);
        if (strategy === 'jwt' && body.access_token.split('.').length !== 3) throw new Error(`${label}: the jwt strategy issued no JWT`);
        if (i >= WARMUP) samples.push(performance.now() - t0);
      }
      const seconds = (performance.now() - t0all) / 1000;
      samples.sort((a, b) => a - b);
      const name = `client credentials, ${strategy} access token`;
      result[name] = { p50: percentile(samples, 50), p99: percentile(samples, 99), perSecond: (WARMUP + REQUESTS) / seconds, load: loadAverage() };
      console.error(`  ${name}: p50 ${result[name]!.p50.toFixed(1)} ms, p99 ${result[name]!.p99.toFixed(1)} ms, ${result[name]!.perSecond.toFixed(0)} tokens/s (load average ${result[name]!.load})`);
    }
    return result;
  } finally {
    await stack.close();
  }
}

async function main() {
  const results = await onEachEngine((_engine, label, options) => run(label, options));
  console.log(`\nOAuth2 token issuance, ${REQUESTS} sequential requests per row over HTTP`);
  for (const [engine, cases] of Object.entries(results)) {
    console.log(`${engine}: p50 / p99 (ms), tokens/s, load average`);
    for (const [name, t] of Object.entries(cases)) console.log(`  ${name} | ${t.p50.toFixed(1)} / ${t.p99.toFixed(1)} | ${t.perSecond.toFixed(0)} | ${t.load}`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
