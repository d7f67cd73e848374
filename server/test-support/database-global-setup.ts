import { randomBytes } from 'node:crypto';
import { dropSchemas, POOLED_SCHEMA_PREFIX_ENV } from './database-pool';

/**
 * On PostgreSQL, names this run's pooled schemas (database-pool.ts) with a prefix of its own, inherited by
 * the workers, and drops every one of them when the run ends.
 */
export default function setup() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) return undefined;
  const prefix = `tp_${randomBytes(4).toString('hex')}_`;
  process.env[POOLED_SCHEMA_PREFIX_ENV] = prefix;
  return () => dropSchemas(databaseUrl, prefix);
}
