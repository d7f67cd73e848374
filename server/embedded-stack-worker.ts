import { parentPort, workerData } from 'node:worker_threads';
import { startLocalStack, type LocalStackOptions } from '../localstack/index';
import { metrics } from '../shared/metrics';
import type { LogLevel } from './config';
import { createLogger } from './logger';

/** What the console hands the embedded local stack's thread (server/embedded-stack.ts). */
export interface EmbeddedStackData {
  options: Omit<LocalStackOptions, 'logger' | 'clock' | 'onAnswer'>;
  logLevel: LogLevel;
  tracing: { tracesUrl: string; serviceName: string } | undefined;
}

/** Messages between the console and this thread. */
export type ToStack = { type: 'close' } | { type: 'metrics'; id: number };
export type FromStack =
  | { type: 'ready'; url: string }
  | { type: 'failed'; message: string; stack?: string | undefined }
  | { type: 'closed' }
  | { type: 'metrics'; id: number; text: string };

/**
 * The embedded local stack in a thread of its own: its database (PGlite runs its queries on the thread
 * that asks them) and its workers never hold up the console's event loop, which goes on serving pages
 * and assets while the stack answers.
 */
const port = parentPort;
if (!port) throw new Error('server/embedded-stack-worker.ts runs as a worker thread (server/embedded-stack.ts)');
const { options, logLevel, tracing } = workerData as EmbeddedStackData;
const send = (message: FromStack) => port.postMessage(message);

try {
  const stopTracing = tracing ? await (await import('../shared/telemetry')).startTracing({ serviceName: tracing.serviceName, otlpTracesUrl: tracing.tracesUrl }) : undefined;
  const stack = await startLocalStack({ ...options, logger: createLogger(logLevel).child({ component: 'localstack' }) });
  port.on('message', (message: ToStack) => {
    if (message.type === 'metrics') {
      void metrics.metrics().then((text) => send({ type: 'metrics', id: message.id, text }));
      return;
    }
    void stack
      .close()
      .then(() => stopTracing?.())
      .finally(() => {
        send({ type: 'closed' });
        port.close();
      });
  });
  send({ type: 'ready', url: stack.url });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined });
  port.close();
}
