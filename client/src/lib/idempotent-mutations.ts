import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable, type Unsubscribable } from '@trpc/server/observable';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** How many mutations one request may carry and still be keyed (their keys joined stay under the BFF's 200 characters). */
const MAX_KEYED_BATCH = 5;

/** 128 random bits as hex (crypto.randomUUID needs a secure context; a console on plain http has none). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether a mutation failed without an answer of the console's server: the connection failed, or a proxy in
 * front of it answered 502–504 without a tRPC error. The mutation may or may not have been done; sent again
 * under its key, it is done at most once.
 */
export function answeredByNobody(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  if (error.data) return false;
  const status = (error.meta as { response?: { status?: number } } | undefined)?.response?.status;
  return status === undefined || status === 502 || status === 503 || status === 504;
}

/**
 * Gives each mutation an Idempotency-Key (kept in its context) and sends it once more, under the same key, when
 * no answer came. The BFF turns the key into one per upstream write, and the upstream answers a repeat from its
 * first answer: a create whose answer was lost to a dropped connection is not done twice.
 */
export function idempotentMutationsLink<TRouter extends AnyRouter>(): TRPCLink<TRouter> {
  return () =>
    ({ next, op }) => {
      if (op.type !== 'mutation') return next(op);
      const keyed = { ...op, context: { ...op.context, idempotencyKey: typeof op.context['idempotencyKey'] === 'string' ? op.context['idempotencyKey'] : newKey() } };
      return observable((observer) => {
        let current: Unsubscribable | null = null;
        const attempt = (last: boolean) => {
          current = next(keyed).subscribe({
            next: (value) => observer.next(value),
            error: (error) => {
              if (!last && answeredByNobody(error)) attempt(true);
              else observer.error(error);
            },
            complete: () => observer.complete(),
          });
        };
        attempt(false);
        return () => current?.unsubscribe();
      });
    };
}

/** The Idempotency-Key header of a request: its mutations' keys, when it carries mutations only and few enough. */
export function idempotencyHeader(opList: readonly { type: string; context: Record<string, unknown> }[]): Record<string, string> {
  const keys = opList.map((op) => (op.type === 'mutation' ? op.context['idempotencyKey'] : undefined));
  if (keys.length === 0 || keys.length > MAX_KEYED_BATCH || keys.some((k) => typeof k !== 'string')) return {};
  return { [IDEMPOTENCY_KEY_HEADER]: keys.join('.') };
}
