import type { Orm, Queryable } from './queryable';

/**
 * Hot reads (the caller's session on every control-plane request, the project list) are built once per
 * database handle and kept: drizzle then skips rebuilding the SQL text on each call. Values come in as
 * `sql.placeholder(name)` arguments of `execute`. A transaction has its own handle, so its statements are
 * kept apart from the database's and go with it.
 */
const cache = new WeakMap<Orm, Map<string, unknown>>();

export function prepared<T>(q: Queryable, name: string, build: (orm: Orm) => T): T {
  let statements = cache.get(q.orm);
  if (!statements) {
    statements = new Map();
    cache.set(q.orm, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(q.orm);
    statements.set(name, statement);
  }
  return statement;
}
