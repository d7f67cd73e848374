import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

/** Default time a client has to send a whole request (headers and body). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** How long a connection refused for a client error keeps reading (and dropping) what the client still sends. */
export const LINGER_MS = 2_000;

/**
 * Fastify options that give a client `ms` to send its whole request, then answer 408 and close: Fastify's
 * own default is no limit, so a body trickled a byte at a time held a connection open for ever. Node checks
 * the deadline on a timer (every 30 s unless told), so the check runs often enough for the limit to hold.
 */
export function requestTimeoutOptions(ms: number): {
  requestTimeout: number;
  http: ServerOptions;
  clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => void;
} {
  return {
    requestTimeout: ms,
    http: {
      requestTimeout: ms,
      headersTimeout: Math.min(ms, 60_000),
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(ms / 5))),
    },
    clientErrorHandler: answerClientErrorAndLinger,
  };
}

/**
 * Answers a request the server refuses before routing it (408 when it took too long, 431 for oversized
 * headers, else 400) in Fastify's shape, then closes as HTTP servers must when the client may still be
 * sending: the answer and a FIN first, then what arrives is read and dropped for a while before the
 * connection is destroyed. Destroying at once (Fastify's default) with the client's bytes still unread makes
 * the kernel send a reset, and a reset can discard the answer before the client has read it: a client
 * trickling its body would see its connection reset instead of the 408 that says why.
 */
export function answerClientErrorAndLinger(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Client Timeout'] : error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Exceeded maximum allowed HTTP header size'] : [400, 'Client Error'];
  const body = JSON.stringify({ error: STATUS_CODES[status], message, statusCode: status });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n\r\n${body}`);
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  socket.resume();
}
