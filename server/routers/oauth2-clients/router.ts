import type { JsonPatch, OAuth2Client, OAuth2ClientTokenLifespans } from '@ory/client';
import { normalizeOAuth2ClientBody } from '../../../shared/domain/oauth2-client';
import {
  oauth2ClientCreateInput,
  oauth2ClientLifespansInput,
  oauth2ClientPatchInput,
  oauth2ClientRefInput,
  oauth2ClientSchema,
  oauth2ClientSetInput,
  oauth2ClientsListInput,
  oauth2ClientsListOutput,
  okOutput,
} from '../../../shared/schemas/oauth2';
import { dataPlaneProcedure, router } from '../../trpc/init';
import { nextTokenOf } from '../identities/paging';

const read = dataPlaneProcedure('backoffice.project.read');
const write = dataPlaneProcedure('backoffice.project.write');
const remove = dataPlaneProcedure('backoffice.project.delete');

/** Fields the admin API answers that a body must not send back (Hydra sets them itself). */
const READ_ONLY = ['client_secret', 'created_at', 'updated_at', 'registration_access_token', 'registration_client_uri'] as const;

/** OAuth2 clients of a project, on its data plane (Hydra's admin API): spec §7 "OAuth2 clients". */
export const oauth2ClientsRouter = router({
  list: read
    .input(oauth2ClientsListInput)
    .output(oauth2ClientsListOutput)
    .query(async ({ ctx, input }) => {
      const res = await ctx.apis.oauth2.listOAuth2Clients({
        pageSize: input.pageSize,
        ...(input.pageToken ? { pageToken: input.pageToken } : {}),
        ...(input.clientName ? { clientName: input.clientName } : {}),
      });
      return { clients: res.data, nextPageToken: nextTokenOf(res.headers as Record<string, unknown>) };
    }),

  get: read
    .input(oauth2ClientRefInput)
    .output(oauth2ClientSchema)
    .query(async ({ ctx, input }) => (await ctx.apis.oauth2.getOAuth2Client({ id: input.clientId })).data),

  /** The answer carries the client's secret: the only time it is shown. */
  create: write
    .input(oauth2ClientCreateInput)
    .output(oauth2ClientSchema)
    .mutation(async ({ ctx, input }) => {
      const body = normalizeOAuth2ClientBody(input.client) as OAuth2Client;
      return (await ctx.apis.oauth2.createOAuth2Client({ oAuth2Client: body })).data;
    }),

  /** Replaces what the form shows, merged onto the client as it is now, so fields the form lacks survive. */
  set: write
    .input(oauth2ClientSetInput)
    .output(oauth2ClientSchema)
    .mutation(async ({ ctx, input }) => {
      const { oauth2 } = ctx.apis;
      const current: Record<string, unknown> = { ...(await oauth2.getOAuth2Client({ id: input.clientId })).data };
      for (const field of READ_ONLY) delete current[field];
      const body = { ...current, ...normalizeOAuth2ClientBody(input.client) } as OAuth2Client;
      return (await oauth2.setOAuth2Client({ id: input.clientId, oAuth2Client: body })).data;
    }),

  patch: write
    .input(oauth2ClientPatchInput)
    .output(oauth2ClientSchema)
    .mutation(async ({ ctx, input }) => (await ctx.apis.oauth2.patchOAuth2Client({ id: input.clientId, jsonPatch: input.patch as JsonPatch[] })).data),

  delete: remove
    .input(oauth2ClientRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.apis.oauth2.deleteOAuth2Client({ id: input.clientId });
      return { ok: true as const };
    }),

  /** The client's own token lifespans; an empty one leaves the project's lifespan to apply. */
  setLifespans: write
    .input(oauth2ClientLifespansInput)
    .output(oauth2ClientSchema)
    .mutation(async ({ ctx, input }) => {
      const lifespans = Object.fromEntries(Object.entries(input.lifespans).filter(([, v]) => v)) as OAuth2ClientTokenLifespans;
      return (await ctx.apis.oauth2.setOAuth2ClientLifespans({ id: input.clientId, oAuth2ClientTokenLifespans: lifespans })).data;
    }),

  /** Secrets replaced by rotations stop working at once. */
  deleteRotatedSecrets: write
    .input(oauth2ClientRefInput)
    .output(oauth2ClientSchema)
    .mutation(async ({ ctx, input }) => (await ctx.apis.oauth2.deleteRotatedOAuth2ClientSecrets({ id: input.clientId })).data),

  /** A new secret, shown once; the old one keeps working until the rotated secrets are deleted. */
  rotateSecret: write
    .input(oauth2ClientRefInput)
    .output(oauth2ClientSchema)
    .mutation(async ({ ctx, input }) => (await ctx.apis.oauth2.rotateOAuth2ClientSecret({ id: input.clientId })).data),
});
