import { TRPCError } from '@trpc/server';
import { okOutput, sessionRefInput, sessionSchema, sessionsListInput, sessionsListOutput, identityRefInput } from '../../../shared/schemas/identities';
import { dataPlaneProcedure, router } from '../../trpc/init';
import { nextTokenOf } from '../identities/paging';

const PAGE_SIZE = 25;
const read = dataPlaneProcedure('backoffice.project.read');
const write = dataPlaneProcedure('backoffice.project.write');

/** Sessions of a project's users, on its data plane: members read them, writers revoke and extend them. */
export const sessionsRouter = router({
  list: read
    .input(sessionsListInput)
    .output(sessionsListOutput)
    .query(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      const page = { pageSize: PAGE_SIZE, ...(input.pageToken ? { pageToken: input.pageToken } : {}) };
      const res = input.identityId
        ? await identity.listIdentitySessions({ id: input.identityId, ...page })
        : await identity.listSessions({ ...page, expand: ['identity', 'devices'] });
      return { sessions: res.data, nextPageToken: nextTokenOf(res.headers as Record<string, unknown>) };
    }),

  get: read
    .input(sessionRefInput)
    .output(sessionSchema)
    .query(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return (await identity.getSession({ id: input.sessionId, expand: ['identity', 'devices'] })).data;
    }),

  revoke: write
    .input(sessionRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      await identity.disableSession({ id: input.sessionId });
      return { ok: true as const };
    }),

  revokeAll: write
    .input(identityRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      await identity.deleteIdentitySessions({ id: input.identityId });
      return { ok: true as const };
    }),

  extend: write
    .input(sessionRefInput)
    .output(sessionSchema)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      const res = await identity.extendSession({ id: input.sessionId });
      if (!res.data) throw new TRPCError({ code: 'BAD_GATEWAY', message: 'The identity provider did not answer the extended session.' });
      return res.data;
    }),
});
