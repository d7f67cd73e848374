import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { injectTraceContext } from '../../shared/telemetry';

export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** The call's one deadline (connect, send, wait and read, retry included); see `deadline`. */
  signal: AbortSignal;
  /** A read sent with another method (a permission check is a POST): as safe to send twice as a GET. */
  readOnly?: boolean | undefined;
}

export const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** The deadline of the whole exchange passed: named like AbortSignal.timeout's reason. */
export class TransportTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * One total deadline for an upstream call. Socket or idle timeouts (axios' `timeout`) restart with every
 * byte, so an upstream that trickles its answer would hold a call far past the limit; this does not.
 */
export function deadline(timeoutMs: number): AbortSignal {
  return AbortSignal.timeout(timeoutMs);
}

/**
 * The same deadline for a call that knows when it is over: `done()` clears the timer at once, where
 * AbortSignal.timeout keeps its timer and signal alive for the whole timeout after the call (at hundreds of
 * calls a second, tens of thousands of live timers for the garbage collector to walk).
 */
export function disposableDeadline(timeoutMs: number): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TransportTimeoutError(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
  timer.unref();
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

/**
 * One HTTP exchange over a keep-alive agent (node:http is markedly cheaper per call than fetch here,
 * which matters on the hot path of every procedure). Rejects on network errors and on the deadline.
 */
export function createTransport() {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 }),
  };

  /**
   * A kept-alive socket the server closed just as we reused it fails with ECONNRESET before any answer;
   * idempotent calls, reads sent as POST, and writes carrying an Idempotency-Key (the upstream answers a repeat
   * from the first), are then retried once on a fresh connection.
   */
  async function send(url: URL, req: TransportRequest): Promise<TransportResponse> {
    try {
      return await sendOnce(url, req);
    } catch (error) {
      const e = error as { code?: string; reusedSocket?: boolean };
      if (e.reusedSocket && e.code === 'ECONNRESET' && (IDEMPOTENT.has(req.method) || req.readOnly || req.headers['idempotency-key'])) return sendOnce(url, req);
      throw error;
    }
  }

  function sendOnce(url: URL, req: TransportRequest): Promise<TransportResponse> {
    return new Promise((resolve, reject) => {
      const { signal } = req;
      if (signal.aborted) {
        reject(new TransportTimeoutError('the deadline passed before the call started'));
        return;
      }
      const isHttps = url.protocol === 'https:';
      const headers: Record<string, string | number> = { ...req.headers };
      injectTraceContext(headers as Record<string, string>);
      if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
      const outgoing = isHttps
        ? httpsRequest(url, { method: req.method, headers, agent: agents['https:'] }, onResponse)
        : httpRequest(url, { method: req.method, headers, agent: agents['http:'] }, onResponse);
      function onResponse(res: IncomingMessage) {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          signal.removeEventListener('abort', onDeadline);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(new Error('the answer was cut short'));
        });
      }
      // Reading the answer counts too: the deadline tears the exchange down wherever it is.
      function onDeadline() {
        outgoing.destroy(new TransportTimeoutError('no complete answer before the deadline'));
      }
      function fail(error: Error) {
        signal.removeEventListener('abort', onDeadline);
        if (signal.aborted) return reject(new TransportTimeoutError('no complete answer before the deadline'));
        reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket }));
      }
      signal.addEventListener('abort', onDeadline, { once: true });
      outgoing.on('error', fail);
      outgoing.end(req.body);
    });
  }

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
