import { TRPCError } from '@trpc/server';
import { sessionOutput } from '../../../shared/schemas/session';
import { publicProcedure } from '../../trpc/init';
import { UpstreamError } from '../../upstream/errors';

/** The caller's session, or null when signed out; FORBIDDEN 'aal2' when a second factor is needed. */
export const session = publicProcedure.output(sessionOutput).query(async ({ ctx }) => {
  try {
    return { session: await ctx.getSession() };
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'http' && error.status === 403) {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'aal2',
        cause: new UpstreamError(403, 'aal2', error.requestId, { upstream: error.upstream, ...(error.errorId ? { errorId: error.errorId } : {}) }),
      });
    }
    throw error;
  }
});
