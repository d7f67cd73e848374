import {
  oauth2ConsentAcceptInput,
  oauth2ConsentChallengeInput,
  oauth2ConsentRequestOutput,
  oauth2RedirectOutput,
} from '../../../shared/schemas/oauth2';
import { authedProcedure, router } from '../../trpc/init';

/**
 * The console's own consent page: an application (a command-line tool, say) asks to act on the signed-in user's
 * console account. The console's OAuth2 server answers only the caller's own consent requests (another user's
 * is not found), so nothing here needs a project or a workspace.
 */
export const oauth2ConsentRouter = router({
  /** Who asks, for what. */
  get: authedProcedure
    .input(oauth2ConsentChallengeInput)
    .output(oauth2ConsentRequestOutput)
    .query(async ({ ctx, input }) => {
      const { data } = await ctx.deps.ory.oauth2(ctx.call).getOAuth2ConsentRequest({ consentChallenge: input.challenge });
      return {
        challenge: data.challenge,
        client: (data.client ?? {}) as Record<string, unknown>,
        requested_scope: data.requested_scope ?? [],
        subject: data.subject ?? '',
      };
    }),

  /** Allow: the application gets the scopes the user left checked, and a code on its way back. */
  accept: authedProcedure
    .input(oauth2ConsentAcceptInput)
    .output(oauth2RedirectOutput)
    .mutation(async ({ ctx, input }) => {
      const { data } = await ctx.deps.ory.oauth2(ctx.call).acceptOAuth2ConsentRequest({
        consentChallenge: input.challenge,
        acceptOAuth2ConsentRequest: { grant_scope: input.scopes, remember: input.remember },
      });
      return { redirect_to: data.redirect_to };
    }),

  /** Deny: the application gets access_denied. */
  reject: authedProcedure
    .input(oauth2ConsentChallengeInput)
    .output(oauth2RedirectOutput)
    .mutation(async ({ ctx, input }) => {
      const { data } = await ctx.deps.ory.oauth2(ctx.call).rejectOAuth2ConsentRequest({ consentChallenge: input.challenge, rejectOAuth2Request: {} });
      return { redirect_to: data.redirect_to };
    }),
});
