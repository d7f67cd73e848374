import type { ServerOptions } from 'node:http';

/** Default time a client has to send a whole request (headers and body). */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Fastify options that give a client `ms` to send its whole request, then answer 408 and close: Fastify's
 * own default is no limit, so a body trickled a byte at a time held a connection open for ever. Node checks
 * the deadline on a timer (every 30 s unless told), so the check runs often enough for the limit to hold.
 */
export function requestTimeoutOptions(ms: number): { requestTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: ms,
    http: {
      requestTimeout: ms,
      headersTimeout: Math.min(ms, 60_000),
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(ms / 5))),
    },
  };
}
