import { TRPCError } from '@trpc/server';
import { nextPageToken } from '../../../shared/domain/link-header';

/** The next page's token from an upstream list's Link header; a header that cannot be read fails in the spec's words. */
export function nextTokenOf(headers: Record<string, unknown> | undefined): string | null {
  const link = headers?.['link'];
  try {
    return nextPageToken(typeof link === 'string' ? link : undefined) ?? null;
  } catch (err) {
    throw new TRPCError({ code: 'BAD_GATEWAY', message: (err as Error).message });
  }
}
