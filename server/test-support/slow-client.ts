import { connect } from 'node:net';

export interface SlowRequestOutcome {
  /** The status line the server answered with ('' when it closed without one). */
  statusLine: string;
  /** Bytes of the body sent before the server answered or closed. */
  bodyBytesSent: number;
  ms: number;
}

/**
 * Sends the request line and headers of a POST announcing a body of `contentLength` bytes, then trickles
 * that body one byte every `everyMs` until the server answers or closes the connection.
 */
export function trickleBody(port: number, path: string, opts: { contentLength?: number; everyMs?: number; headers?: Record<string, string> } = {}): Promise<SlowRequestOutcome> {
  const contentLength = opts.contentLength ?? 100_000;
  const everyMs = opts.everyMs ?? 100;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answer = '';
    let sent = 0;
    const socket = connect(port, '127.0.0.1');
    // The body starts once the request line and headers are written: a byte queued before the connection
    // opened (a slow connect on a busy machine) would go out first and make the request malformed.
    let timer: ReturnType<typeof setInterval> | undefined;
    const done = () => {
      clearInterval(timer);
      socket.destroy();
      resolve({ statusLine: answer.split('\r\n')[0] ?? '', bodyBytesSent: sent, ms: performance.now() - started });
    };
    socket.on('connect', () => {
      const headers = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': String(contentLength), ...opts.headers };
      socket.write(`POST ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
      timer = setInterval(() => {
        if (sent < contentLength && socket.writable) {
          socket.write(' ');
          sent += 1;
        }
      }, everyMs);
    });
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done();
    });
    socket.on('close', done);
    socket.on('error', (error) => {
      clearInterval(timer);
      if (answer) done();
      else reject(error);
    });
  });
}
