/**
 * Database failures the local stack answers in particular ways. drizzle wraps a driver's error in its own
 * (the driver's one is its `cause`), so these look down the cause chain.
 */

function* causes(err: unknown): Generator<unknown> {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** The SQLSTATE of a PostgreSQL error (`23505`…), from the driver's error or the one drizzle wraps. */
export function pgErrorCode(err: unknown): string | undefined {
  for (const e of causes(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A unique constraint rejected the write. */
export const isUniqueViolation = (err: unknown) => pgErrorCode(err) === '23505';

/** Node socket errors of a connection that went away or could not be made. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
/** node-postgres' messages for a connection that ended under a query, or a client left unusable by that. */
const DROPPED = /^(Connection terminated|Client has encountered a connection error|Client was closed|Connection terminated unexpectedly|timeout exceeded when trying to connect)/;

/**
 * The database connection failed rather than the statement: the server terminated the backend
 * (57P01 admin shutdown and the like, class 08 connection exceptions), or the socket dropped. The request
 * that ran into it is answered 503; the pool opens a fresh connection for the next one.
 */
export function isConnectionError(err: unknown): boolean {
  for (const e of causes(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code) || SOCKET_CODES.has(code))) {
      return true;
    }
    if (e instanceof Error && DROPPED.test(e.message)) return true;
  }
  return false;
}

/** Seconds a caller told 503 because the database connection failed waits before trying again (`Retry-After`). */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** The reason given to callers when the database connection failed. */
export const DATABASE_UNAVAILABLE = 'The database connection was lost while answering this request. Try it again.';

/**
 * Runs a write that follows an answer already given (a token's event and usage, counted checks) again when
 * the database connection failed under it, up to `tries` times, `DATABASE_RETRY_AFTER_SECONDS` apart: the
 * caller was told it succeeded, so a dropped connection must not drop what that implies. A statement cut by
 * its connection's end did not commit, except in the rare case the end came between the commit and its
 * answer: then a unit is counted twice, a lesser harm than losing every unit of every outage.
 */
export async function surviveConnectionLoss<T>(write: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= tries || !isConnectionError(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, DATABASE_RETRY_AFTER_SECONDS * 1000));
    }
  }
}
