/**
 * What the database benchmarks share: the PostgreSQL they use when one answers, percentiles, and running one
 * benchmark on embedded PGlite and then on PostgreSQL (in a schema of its own, dropped after), side by side.
 */
import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { loadavg } from 'node:os';

export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/** The p-th percentile of ascending samples. */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(Number(port || 5432), hostname);
  });
}

export type Engine = 'PGlite' | 'PostgreSQL';
/** The local stack's database options for an engine. */
export type EngineOptions = { databaseUrl?: string; dbSchema?: string };

/** The engines to run on: `BENCH_ENGINES` (comma-separated, e.g. `PostgreSQL` for a million rows, which PGlite holds in memory), else both. */
const ENGINES = new Set((process.env.BENCH_ENGINES ?? 'PGlite,PostgreSQL').split(',').map((e) => e.trim()));

/** The machine's load average (1, 5, 15 minutes), printed beside every figure: on a shared machine a p99 is only read with it. */
export const loadAverage = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

/** Runs `bench` on PGlite, then on PostgreSQL when one answers at PG_URL (each unless `BENCH_ENGINES` leaves it out); answers each engine's result. */
export async function onEachEngine<R>(bench: (engine: Engine, label: string, options: EngineOptions) => Promise<R>): Promise<Partial<Record<Engine, R>>> {
  const results: Partial<Record<Engine, R>> = {};
  if (ENGINES.has('PGlite')) results.PGlite = await bench('PGlite', 'PGlite (embedded, in memory)', {});
  if (!ENGINES.has('PostgreSQL')) return results;
  if (!(await reachable(PG_URL))) {
    console.error(`No PostgreSQL at ${PG_URL}: PGlite only`);
    return results;
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  try {
    results.PostgreSQL = await bench('PostgreSQL', `PostgreSQL (${new URL(PG_URL).host})`, { databaseUrl: PG_URL, dbSchema: schema });
  } finally {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  return results;
}
