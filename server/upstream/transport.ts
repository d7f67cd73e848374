import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** A deadline for the whole exchange (connect, send, wait, read), like AbortSignal.timeout. */
export class TransportTimeoutError extends Error {
  override readonly name = 'TimeoutError';
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
   * idempotent calls are then retried once on a fresh connection.
   */
  async function send(url: URL, req: TransportRequest): Promise<TransportResponse> {
    try {
      return await sendOnce(url, req);
    } catch (error) {
      const e = error as { code?: string; reusedSocket?: boolean };
      if (e.reusedSocket && e.code === 'ECONNRESET' && IDEMPOTENT.has(req.method)) return sendOnce(url, req);
      throw error;
    }
  }

  function sendOnce(url: URL, req: TransportRequest): Promise<TransportResponse> {
    return new Promise((resolve, reject) => {
      const isHttps = url.protocol === 'https:';
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
      const outgoing = (isHttps ? httpsRequest : httpRequest)(
        url,
        { method: req.method, headers, agent: isHttps ? agents['https:'] : agents['http:'] },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', fail);
        },
      );
      const timer = setTimeout(() => outgoing.destroy(new TransportTimeoutError(`no answer within ${req.timeoutMs} ms`)), req.timeoutMs);
      function fail(error: Error) {
        clearTimeout(timer);
        reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket }));
      }
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
