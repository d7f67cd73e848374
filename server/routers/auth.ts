import { TRPCError } from '@trpc/server';
import type { Session } from '../../shared/schemas/session';
import { publicProcedure, router } from '../trpc/init';
import { UpstreamError } from '../upstream/errors';

export const authRouter = router({
  /** The caller's session, or null when signed out; FORBIDDEN 'aal2' when a second factor is needed. */
  session: publicProcedure.query(async ({ ctx }): Promise<{ session: Session | null }> => {
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
  }),
});
