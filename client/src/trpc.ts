import { httpBatchLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../../server/routers/_app';
import { failedRequestsLink } from './lib/failed-requests';
import { idempotencyHeader, idempotentMutationsLink } from './lib/idempotent-mutations';

export const trpc = createTRPCReact<AppRouter>();

/** Every call carries this header; the BFF refuses mutations without it (CSRF). */
export const CSRF_HEADER = { 'x-console-request': '1' } as const;
export const TRPC_URL = '/api/trpc';
export const TRPC_MAX_BATCH_ITEMS = 10;

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      failedRequestsLink<AppRouter>(),
      idempotentMutationsLink<AppRouter>(),
      httpBatchLink({
        url: TRPC_URL,
        maxItems: TRPC_MAX_BATCH_ITEMS,
        headers: ({ opList }) => ({ ...CSRF_HEADER, ...idempotencyHeader(opList) }),
        fetch: (input, init) => fetch(input, { ...init, credentials: 'same-origin' }),
      }),
    ],
  });
}

export type TrpcClient = ReturnType<typeof createTrpcClient>;
