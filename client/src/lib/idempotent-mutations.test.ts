import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { initTRPC, TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER, idempotencyHeader, idempotentMutationsLink } from './idempotent-mutations';

/**
 * A server that does each keyed write once (as the console's upstream does) and a network in front of it that
 * loses answers on demand: `lose` answers to drop after the server has acted, `refuse` requests to fail before.
 */
function world(opts: { lose?: number; gatewayErrors?: number } = {}) {
  const done = new Map<string, number>();
  const keysSeen: (string | null)[] = [];
  let lose = opts.lose ?? 0;
  let gatewayErrors = opts.gatewayErrors ?? 0;
  const t = initTRPC.context<{ key: string | null }>().create();
  const router = t.router({
    create: t.procedure.input(z.object({ name: z.string() })).mutation(({ ctx, input }) => {
      if (input.name === '') throw new TRPCError({ code: 'BAD_REQUEST', message: 'Give it a name.' });
      const key = ctx.key ?? `unkeyed-${done.size}`;
      if (!done.has(key)) done.set(key, done.size + 1);
      return { id: done.get(key)! };
    }),
    read: t.procedure.query(() => 'ok'),
  });
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    keysSeen.push(request.headers.get(IDEMPOTENCY_KEY_HEADER));
    if (gatewayErrors > 0) {
      gatewayErrors -= 1;
      return new Response('Bad gateway', { status: 502 });
    }
    const answer = await fetchRequestHandler({ endpoint: '/api/trpc', req: request, router, createContext: () => ({ key: request.headers.get(IDEMPOTENCY_KEY_HEADER) }) });
    if (lose > 0) {
      lose -= 1;
      throw new TypeError('Failed to fetch');
    }
    return answer;
  };
  const client = createTRPCClient<typeof router>({
    links: [
      idempotentMutationsLink(),
      httpBatchLink({ url: 'http://console.test/api/trpc', fetch: fetchImpl, headers: ({ opList }) => idempotencyHeader(opList) }),
    ],
  });
  return { client, done, keysSeen };
}

describe('idempotentMutationsLink', () => {
  it('sends a mutation whose answer was lost once more under the same key, and it is done once', async () => {
    const { client, done, keysSeen } = world({ lose: 1 });
    await expect(client.create.mutate({ name: 'Acme' })).resolves.toEqual({ id: 1 });
    expect(keysSeen).toHaveLength(2);
    expect(keysSeen[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keysSeen[1]).toBe(keysSeen[0]);
    expect(done.size).toBe(1);
  });

  it('sends it again after a proxy’s 502, and gives up after a second lost answer', async () => {
    const proxied = world({ gatewayErrors: 1 });
    await expect(proxied.client.create.mutate({ name: 'Acme' })).resolves.toEqual({ id: 1 });
    expect(proxied.keysSeen).toHaveLength(2);

    const gone = world({ lose: 2 });
    await expect(gone.client.create.mutate({ name: 'Acme' })).rejects.toThrow('Failed to fetch');
    expect(gone.keysSeen).toHaveLength(2);
    expect(gone.done.size).toBe(1);
  });

  it('does not send again what the server refused, gives each mutation its own key, and keys no query', async () => {
    const { client, keysSeen } = world();
    await expect(client.create.mutate({ name: '' })).rejects.toThrow('Give it a name.');
    expect(keysSeen).toHaveLength(1);
    await client.create.mutate({ name: 'One' });
    await client.create.mutate({ name: 'Two' });
    expect(new Set(keysSeen).size).toBe(3);
    await client.read.query();
    expect(keysSeen.at(-1)).toBeNull();
  });

  it('keys a request of a few mutations with their keys joined, and none that mixes in a query or carries many', () => {
    const m = (k: string) => ({ type: 'mutation', context: { idempotencyKey: k } });
    expect(idempotencyHeader([m('a'), m('b')])).toEqual({ [IDEMPOTENCY_KEY_HEADER]: 'a.b' });
    expect(idempotencyHeader([m('a'), { type: 'query', context: {} }])).toEqual({});
    expect(idempotencyHeader(['a', 'b', 'c', 'd', 'e', 'f'].map(m))).toEqual({});
  });
});
