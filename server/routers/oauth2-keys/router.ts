import type { JsonWebKey } from '@ory/client';
import { okOutput, oauth2KeyCreateInput, oauth2KeyRefInput, oauth2KeySetInput, oauth2KeySetOutput } from '../../../shared/schemas/oauth2';
import { dataPlaneProcedure, router } from '../../trpc/init';

const read = dataPlaneProcedure('backoffice.project.read');
const write = dataPlaneProcedure('backoffice.project.write');
const remove = dataPlaneProcedure('backoffice.project.delete');

const PRIVATE_FIELDS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth']);

/** The console shows a key's public parts only: private ones never leave the BFF. */
const publicKeys = (keys: JsonWebKey[] | undefined) =>
  (keys ?? []).map((key) => Object.fromEntries(Object.entries(key).filter(([field]) => !PRIVATE_FIELDS.has(field))));

/** A project's JSON Web Key sets (Hydra's admin API); `hydra.openid.id-token` holds the keys that sign its tokens. */
export const oauth2KeysRouter = router({
  get: read
    .input(oauth2KeySetInput)
    .output(oauth2KeySetOutput)
    .query(async ({ ctx, input }) => ({ keys: publicKeys((await ctx.apis.jwk.getJsonWebKeySet({ set: input.set })).data.keys) })),

  /** A new key in the set (the set is made if it does not exist); a key of the signing set signs from now on. */
  create: write
    .input(oauth2KeyCreateInput)
    .output(oauth2KeySetOutput)
    .mutation(async ({ ctx, input }) => {
      const { data } = await ctx.apis.jwk.createJsonWebKeySet({
        set: input.set,
        createJsonWebKeySet: { alg: input.alg, use: input.use, kid: input.kid ?? '' },
      });
      return { keys: publicKeys(data.keys) };
    }),

  deleteKey: remove
    .input(oauth2KeyRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.apis.jwk.deleteJsonWebKey({ set: input.set, kid: input.kid });
      return { ok: true as const };
    }),

  deleteSet: remove
    .input(oauth2KeySetInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.apis.jwk.deleteJsonWebKeySet({ set: input.set });
      return { ok: true as const };
    }),
});
