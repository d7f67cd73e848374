import { spawn, type ChildProcess } from 'node:child_process';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { ReactNode } from 'react';
import type { AppRouter } from '../../../server/routers/_app';
import { createQueryClient } from '../lib/query-client';
import { CSRF_HEADER, trpc, TRPC_URL } from '../trpc';

export interface RealBackend {
  projectId: string;
  /** The BFF's procedures, called as the signed-in user (to set up what a test shows). */
  api: ReturnType<typeof createTRPCClient<AppRouter>>;
  /** Gives `subject` a consent to a new client of the project named `clientName`; answers the client's id. */
  seedConsent(subject: string, clientName: string): Promise<string>;
  /** The status of a client-credentials token request of the project with this secret (200 when it works). */
  tokenStatus(clientId: string, secret: string): Promise<number>;
  wrap(node: ReactNode): ReactNode;
  close(): Promise<void>;
}

type Answer = { id: number; status: number; headers: Record<string, string>; body: string };

/**
 * The real BFF over a real local stack for a component test, in a child process (server/test-support/
 * component-backend.ts): a signed-in user with a project. The page's tRPC requests go to it over IPC instead of
 * the network, and are answered by the BFF's own HTTP handling.
 */
export async function realBackend(): Promise<RealBackend> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/test-support/component-backend.ts'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  const waiting = new Map<number, (answer: Answer) => void>();
  let next = 0;
  const ready = new Promise<{ projectId: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the component backend exited (${code})`)));
    child.on('message', (raw) => {
      const message = raw as Answer & { ready?: boolean; projectId: string };
      if (message.ready) resolve(message);
      else waiting.get(message.id)?.(message), waiting.delete(message.id);
    });
  });
  const { projectId } = await ready;

  const ask = (message: Record<string, unknown>) =>
    new Promise<Answer>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.send({ id, ...message });
    });

  const overIpc = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://console.test');
    const answer = await ask({
      method: init?.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };

  const link = () => httpLink({ url: TRPC_URL, headers: () => ({ ...CSRF_HEADER }), fetch: overIpc });
  const client = trpc.createClient({ links: [link()] });
  return {
    projectId,
    api: createTRPCClient<AppRouter>({ links: [link()] }),
    seedConsent: async (subject, clientName) => {
      const answer = await ask({ seedConsent: { subject, clientName } });
      if (answer.status !== 200) throw new Error(answer.body);
      return answer.body;
    },
    tokenStatus: async (clientId, secret) => (await ask({ clientCredentials: { clientId, secret } })).status,
    wrap(node) {
      const queryClient = createQueryClient();
      return (
        <trpc.Provider client={client} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>{node}</QueryClientProvider>
        </trpc.Provider>
      );
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}
