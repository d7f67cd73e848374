import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as analytics from '../analytics/schema';
import * as billing from '../billing/schema';
import * as controlPlane from '../project/schema';
import * as identity from '../identity/schema';

/** Every table of the local stack, as drizzle sees it (one schema file per area). */
export const schema = { ...identity, ...controlPlane, ...billing, ...analytics };
export type Schema = typeof schema;

/**
 * A typed drizzle handle on the local stack's database, the same type for PGlite and node-postgres, and
 * for the database itself and for a transaction (a transaction is a database whose queries run in it).
 */
export type Orm = PgDatabase<PgQueryResultHKT, Schema>;
