import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb } from '../../localstack/db/index';
import type { Db } from '../../localstack/db/types';

/**
 * Fresh databases for test stacks, lent and taken back emptied. Opening a database is most of a stack's start:
 * an in-memory PGlite cluster loaded from its template took 1 s alone and 2 s beside another worker (123 starts,
 * a third of the integration suite's time), a PostgreSQL schema migrated afresh 0.8 s. Emptying one takes a
 * tenth of that: every table but the migrations' own is truncated, sequences restarted.
 *
 * A database comes back only when it emptied and its structure is still the one the migrations left (tables,
 * columns and their types, indexes, constraints, functions and triggers): one a test changed, or that could not
 * be emptied, is closed (PGlite) or dropped (PostgreSQL) instead, and the next stack gets a new one.
 */

/** What the migrations built in the current schema: a fingerprint that changes when a test changes it. */
const STRUCTURE_SQL = `
  SELECT md5(coalesce((SELECT string_agg(c.relname::text || ':' || c.relkind::text || ':' || coalesce(a.attname::text, '') || ':' || coalesce(a.atttypid::text, ''), ',' ORDER BY c.relname, a.attnum)
                         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                         LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                        WHERE n.nspname = current_schema()), '')
      || '|' || coalesce((SELECT string_agg(co.conname::text, ',' ORDER BY co.conname) FROM pg_constraint co JOIN pg_namespace n ON n.oid = co.connamespace WHERE n.nspname = current_schema()), '')
      || '|' || coalesce((SELECT string_agg(p.proname::text || md5(p.prosrc), ',' ORDER BY p.proname) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()), '')
      || '|' || coalesce((SELECT string_agg(t.tgname::text, ',' ORDER BY t.tgname) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND NOT t.tgisinternal), '')
  ) AS structure`;

type Query = Db['query'];

async function structureOf(query: Query): Promise<string> {
  const [row] = await query<{ structure: string }>(STRUCTURE_SQL);
  return row!.structure;
}

/** Empties every table of the current schema but the migrations' record; answers the structure it found after. */
async function empty(query: Query): Promise<string> {
  const tables = await query<{ name: string }>(`SELECT format('%I', tablename) AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`);
  if (tables.length > 0) await query(`TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
  return structureOf(query);
}

interface PooledPglite {
  db: Db;
  structure: string;
}

const idlePglite: PooledPglite[] = [];

/** An empty in-memory PGlite database with every migration applied; closing it gives it back to the pool. */
export async function lendPglite(): Promise<Db> {
  let pooled = idlePglite.pop();
  if (!pooled) {
    const db = await openDb();
    pooled = { db, structure: await structureOf(db.query) };
  }
  const lent = pooled;
  let closing: Promise<void> | null = null;
  // A new object for each loan: caches a stack keeps per database (authz-cache.ts) start empty with it.
  return {
    ...lent.db,
    close() {
      closing ??= (async () => {
        try {
          if ((await empty(lent.db.query)) === lent.structure) {
            idlePglite.push(lent);
            return;
          }
        } catch {
          // Not emptied: it is closed below, and the next stack opens a new one.
        }
        await lent.db.close().catch(() => undefined);
      })();
      return closing;
    },
  };
}

/**
 * Schemas are pooled on PostgreSQL when the run named a prefix for them (the integration suite's global setup
 * does, and drops every schema of that prefix when the run ends); otherwise each stack's schema is dropped
 * when it closes.
 */
export const POOLED_SCHEMA_PREFIX_ENV = 'CONSOLE_TEST_SCHEMA_PREFIX';

interface PooledSchema {
  name: string;
  /** Known once a stack has migrated it. */
  structure: string | null;
}

const idleSchemas: PooledSchema[] = [];

export interface LentSchema {
  name: string;
  /** Call with the stack's database once it has opened (the first loan records the migrations' structure). */
  opened(db: Pick<Db, 'query'>): Promise<void>;
  /** After the stack has closed: empties the schema for the next loan, or drops it. */
  giveBack(): Promise<void>;
}

export function freshSchemaName(prefix = 't_'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

export function lendSchema(databaseUrl: string): LentSchema {
  const prefix = process.env[POOLED_SCHEMA_PREFIX_ENV];
  const pooled: PooledSchema = (prefix ? idleSchemas.pop() : undefined) ?? { name: freshSchemaName(prefix), structure: null };
  return {
    name: pooled.name,
    async opened(db) {
      pooled.structure ??= await structureOf(db.query);
    },
    async giveBack() {
      await withClient(databaseUrl, pooled.name, async (client) => {
        const query: Query = async (sql, params) => (await client.query(sql, params)).rows;
        if (prefix && pooled.structure !== null) {
          const structure = await empty(query).catch(() => null);
          if (structure === pooled.structure) {
            idleSchemas.push(pooled);
            return;
          }
        }
        await dropSchemaWith(client, pooled.name);
      });
    },
  };
}

/** Drops every schema whose name starts with `prefix` (the end of a run that pooled them). */
export async function dropSchemas(databaseUrl: string, prefix: string): Promise<void> {
  await withClient(databaseUrl, undefined, async (client) => {
    const { rows } = await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)`, [prefix]);
    for (const { name } of rows) await dropSchemaWith(client, name);
  });
}

/** Drops one schema and all it holds. */
export function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  return withClient(databaseUrl, undefined, (client) => dropSchemaWith(client, schema));
}

async function dropSchemaWith(client: pg.Client, schema: string): Promise<void> {
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

async function withClient<T>(databaseUrl: string, schema: string | undefined, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
