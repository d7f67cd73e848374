import {
  okOutput,
  oauth2ConsentSessionsInput,
  oauth2ConsentSessionsOutput,
  oauth2RevokeConsentInput,
  oauth2RevokeLoginInput,
} from '../../../shared/schemas/oauth2';
import { dataPlaneProcedure, router } from '../../trpc/init';
import { nextTokenOf } from '../identities/paging';

const read = dataPlaneProcedure('backoffice.project.read');
const remove = dataPlaneProcedure('backoffice.project.delete');

/** What a project's users consented to and their remembered sign-ins at its OAuth2 server (Hydra's admin API). */
export const oauth2SessionsRouter = router({
  /** The apps a subject consented to, newest first, 25 a page. */
  listConsent: read
    .input(oauth2ConsentSessionsInput)
    .output(oauth2ConsentSessionsOutput)
    .query(async ({ ctx, input }) => {
      const res = await ctx.apis.oauth2.listOAuth2ConsentSessions({
        subject: input.subject,
        pageSize: 25,
        ...(input.pageToken ? { pageToken: input.pageToken } : {}),
      });
      // The output schema reads the answer; Ory's interface types carry no index signature.
      return { sessions: res.data as unknown as Array<Record<string, unknown>>, nextPageToken: nextTokenOf(res.headers as Record<string, unknown>) };
    }),

  /** One app's consent of the subject, or every app's; the tokens issued under it stop working. */
  revokeConsent: remove
    .input(oauth2RevokeConsentInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.apis.oauth2.revokeOAuth2ConsentSessions(
        input.clientId ? { subject: input.subject, client: input.clientId } : { subject: input.subject, all: true },
      );
      return { ok: true as const };
    }),

  /** The subject's remembered sign-ins end: the next authorization asks them to sign in again. */
  revokeLogin: remove
    .input(oauth2RevokeLoginInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.apis.oauth2.revokeOAuth2LoginSessions({ subject: input.subject });
      return { ok: true as const };
    }),
});
