import { Worker } from 'node:worker_threads';
import { seriesWithPrefix } from '../shared/metrics';
import type { Logger } from './logger';
import type { EmbeddedStackData, FromStack, ToStack } from './embedded-stack-worker';

export interface EmbeddedStack {
  url: string;
  /** The stack's own Prometheus series (queues, pool), for the console's metrics port. */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The worker thread: the bundle's own file beside main.js in a build (scripts/build-server.mjs); from
 * source, a thread that first registers tsx's loader (a thread does not inherit it) and then imports the
 * TypeScript module.
 */
function newWorker(workerData: EmbeddedStackData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./embedded-stack-worker.js', import.meta.url), { workerData });
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const module = JSON.stringify(new URL('./embedded-stack-worker.ts', import.meta.url).href);
  return new Worker(`import(${api}).then(({ register }) => { register(); return import(${module}); });`, { eval: true, workerData });
}

/** Starts the embedded local stack in a worker thread; settles once it listens (or failed to start). */
export function startEmbeddedStack(data: EmbeddedStackData, logger: Logger): Promise<EmbeddedStack> {
  const worker = newWorker(data);
  let closed: Promise<void> | undefined;
  let nextId = 0;
  const waiting = new Map<number, (text: string) => void>();
  return new Promise<EmbeddedStack>((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`the embedded local stack's thread exited with ${code} before it started`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.on('message', (message: FromStack) => {
      if (message.type === 'metrics') {
        waiting.get(message.id)?.(message.text);
        waiting.delete(message.id);
      } else if (message.type === 'failed') {
        reject(Object.assign(new Error(message.message), { stack: message.stack }));
      } else if (message.type === 'ready') {
        worker.off('exit', onExit);
        worker.off('error', reject);
        worker.on('error', (error) => logger.error({ err: error }, 'the embedded local stack failed'));
        worker.once('exit', (code) => {
          if (!closed) logger.fatal({ code }, 'the embedded local stack stopped');
          for (const answer of waiting.values()) answer('');
        });
        const post = (message: ToStack) => worker.postMessage(message);
        resolve({
          url: message.url,
          metrics: () =>
            new Promise<string>((answer) => {
              const id = nextId++;
              waiting.set(id, (text) => answer(seriesWithPrefix(text, 'localstack_')));
              post({ type: 'metrics', id });
            }),
          // The thread closes the stack (its connections drained, its data written), then is ended.
          close: () =>
            (closed ??= new Promise<void>((done) => {
              const end = () => void worker.terminate().then(() => done(), () => done());
              worker.on('message', (answer: FromStack) => {
                if (answer.type === 'closed') end();
              });
              worker.once('exit', () => done());
              post({ type: 'close' });
            })),
        });
      }
    });
  });
}
