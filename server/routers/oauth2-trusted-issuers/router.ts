import type { JsonWebKey } from '@ory/client';
import { TRPCError } from '@trpc/server';
import {
  okOutput,
  trustedIssuerRefInput,
  trustedIssuerSchema,
  trustedIssuersListInput,
  trustedIssuersListOutput,
  trustIssuerInput,
} from '../../../shared/schemas/oauth2';
import { dataPlaneProcedure, router } from '../../trpc/init';
import { nextTokenOf } from '../identities/paging';

const read = dataPlaneProcedure('backoffice.project.read');
const write = dataPlaneProcedure('backoffice.project.write');
const remove = dataPlaneProcedure('backoffice.project.delete');

/** The issuer's key given as JSON text is parsed; a key that is no JSON object, or names no kid, is refused here. */
function keyOf(jwk: string | Record<string, unknown>): JsonWebKey {
  let key: unknown = jwk;
  if (typeof jwk === 'string') {
    try {
      key = JSON.parse(jwk);
    } catch {
      key = undefined;
    }
  }
  if (!key || typeof key !== 'object' || Array.isArray(key) || typeof (key as { kid?: unknown }).kid !== 'string' || !(key as { kid: string }).kid) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The key must be a JSON Web Key (a JSON object) that names its kid' });
  }
  return key as JsonWebKey;
}

/** Issuers whose signed JWTs a project's OAuth2 server takes as grants (Hydra's trusted JWT-bearer issuers). */
export const oauth2TrustedIssuersRouter = router({
  list: read
    .input(trustedIssuersListInput)
    .output(trustedIssuersListOutput)
    .query(async ({ ctx, input }) => {
      const res = await ctx.apis.oauth2.listTrustedOAuth2JwtGrantIssuers({
        pageSize: 25,
        ...(input.pageToken ? { pageToken: input.pageToken } : {}),
        ...(input.issuer ? { issuer: input.issuer } : {}),
      });
      return { issuers: res.data, nextPageToken: nextTokenOf(res.headers as Record<string, unknown>) };
    }),

  get: read
    .input(trustedIssuerRefInput)
    .output(trustedIssuerSchema)
    .query(async ({ ctx, input }) => (await ctx.apis.oauth2.getTrustedOAuth2JwtGrantIssuer({ id: input.id })).data),

  trust: write
    .input(trustIssuerInput)
    .output(trustedIssuerSchema)
    .mutation(async ({ ctx, input }) => {
      const { issuer } = input;
      const scope = Array.isArray(issuer.scope) ? issuer.scope : (issuer.scope ?? '').split(' ');
      const { data } = await ctx.apis.oauth2.trustOAuth2JwtGrantIssuer({
        trustOAuth2JwtGrantIssuer: {
          issuer: issuer.issuer,
          ...(issuer.subject ? { subject: issuer.subject } : {}),
          ...(issuer.allow_any_subject ? { allow_any_subject: true } : {}),
          scope: scope.map((s) => s.trim()).filter(Boolean),
          jwk: keyOf(issuer.jwk),
          expires_at: new Date(issuer.expires_at).toISOString(),
        },
      });
      return data;
    }),

  delete: remove
    .input(trustedIssuerRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.apis.oauth2.deleteTrustedOAuth2JwtGrantIssuer({ id: input.id });
      return { ok: true as const };
    }),
});
