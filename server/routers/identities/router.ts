import type { Identity } from '@ory/client';
import { TRPCError } from '@trpc/server';
import { UncompilableSchemaError, validateTraits } from '../../../shared/domain/traits-validation';
import {
  checkTraitsInput,
  checkTraitsOutput,
  existingAddressesInput,
  existingAddressesOutput,
  identitiesListInput,
  identitiesListOutput,
  identityCreateInput,
  identityCredentialInput,
  identityImportInput,
  identityRefInput,
  identitySchema,
  identitySchemasOutput,
  identityStateInput,
  identityUpdateInput,
  importOutput,
  okOutput,
  recoveryCodeOutput,
  recoveryLinkOutput,
} from '../../../shared/schemas/identities';
import { dataPlaneProcedure, router } from '../../trpc/init';
import { activeSchemas } from '../schemas/active';
import { existingAddresses, filteredPage, totalOf } from './list';

const read = dataPlaneProcedure('backoffice.project.read');
const write = dataPlaneProcedure('backoffice.project.write');

/** Ory's JSON patch for the fields an edit changed (the rest of the identity, unknown fields too, stays as it is). */
function patchOf(input: { traits?: unknown; metadataPublic?: unknown; metadataAdmin?: unknown }) {
  const ops: { op: 'replace'; path: string; value: unknown }[] = [];
  if (input.traits !== undefined) ops.push({ op: 'replace', path: '/traits', value: input.traits });
  if (input.metadataPublic !== undefined) ops.push({ op: 'replace', path: '/metadata_public', value: input.metadataPublic });
  if (input.metadataAdmin !== undefined) ops.push({ op: 'replace', path: '/metadata_admin', value: input.metadataAdmin });
  return ops;
}

/**
 * Identities of a project, on its data plane (`@ory/client` IdentityApi with the forwarded cookie): members
 * read them (`backoffice.project.read`), writers change them (`backoffice.project.write`).
 */
export const identitiesRouter = router({
  list: read
    .input(identitiesListInput)
    .output(identitiesListOutput)
    .query(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      const [page, total] = await Promise.all([
        filteredPage(identity, input),
        // Kratos' legacy page pagination is the one list that counts: one row, and X-Total-Count.
        identity.listIdentities({ page: 0, perPage: 1 }).then((res) => totalOf(res.headers as Record<string, unknown>)),
      ]);
      return { ...page, total };
    }),

  schemas: read
    .input(identityRefInput.pick({ projectId: true }))
    .output(identitySchemasOutput)
    .query(async ({ ctx }) => {
      return (await activeSchemas(ctx)).map((s) => ({ id: s.id, schema: s.schema }));
    }),

  checkTraits: read
    .input(checkTraitsInput)
    .output(checkTraitsOutput)
    // A mutation only for its transport: a thousand rows do not fit in a GET's URL. It writes nothing.
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      const schema = (await identity.getIdentitySchema({ id: input.schemaId })).data;
      // The identity provider's own validation (ajv), for a form or a dry run before anything is written.
      try {
        return { errors: input.traits.map((traits) => validateTraits(schema, traits)) };
      } catch (err) {
        if (err instanceof UncompilableSchemaError) throw new TRPCError({ code: 'BAD_REQUEST', message: err.message });
        throw err;
      }
    }),

  existingAddresses: read
    .input(existingAddressesInput)
    .output(existingAddressesOutput)
    // A mutation only for its transport: a thousand addresses do not fit in a GET's URL. It writes nothing.
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return { existing: await existingAddresses(identity, input.addresses) };
    }),

  get: read
    .input(identityRefInput)
    .output(identitySchema)
    .query(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return (await identity.getIdentity({ id: input.identityId, includeCredential: ['password', 'oidc', 'code'] })).data;
    }),

  create: write
    .input(identityCreateInput)
    .output(identitySchema)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return (await identity.createIdentity({ createIdentityBody: { schema_id: input.schemaId, traits: input.traits, ...(input.state ? { state: input.state } : {}) } })).data;
    }),

  update: write
    .input(identityUpdateInput)
    .output(identitySchema)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return (await identity.patchIdentity({ id: input.identityId, jsonPatch: patchOf(input) })).data;
    }),

  setState: write
    .input(identityStateInput)
    .output(identitySchema)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return (await identity.patchIdentity({ id: input.identityId, jsonPatch: [{ op: 'replace', path: '/state', value: input.state }] })).data;
    }),

  delete: write
    .input(identityRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      await identity.deleteIdentity({ id: input.identityId });
      return { ok: true as const };
    }),

  deleteCredential: write
    .input(identityCredentialInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      await identity.deleteIdentityCredentials({ id: input.identityId, type: input.type as never });
      return { ok: true as const };
    }),

  createRecoveryLink: write
    .input(identityRefInput)
    .output(recoveryLinkOutput)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return (await identity.createRecoveryLinkForIdentity({ createRecoveryLinkForIdentityBody: { identity_id: input.identityId } })).data;
    }),

  createRecoveryCode: write
    .input(identityRefInput)
    .output(recoveryCodeOutput)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      return (await identity.createRecoveryCodeForIdentity({ createRecoveryCodeForIdentityBody: { identity_id: input.identityId } })).data;
    }),

  import: write
    .input(identityImportInput)
    .output(importOutput)
    .mutation(async ({ ctx, input }) => {
      const { identity } = ctx.apis;
      const res = await identity.batchPatchIdentities({
        patchIdentitiesBody: {
          identities: input.identities.map((i) => ({
            create: {
              schema_id: i.schemaId,
              traits: i.traits,
              ...(i.state ? { state: i.state } : {}),
              ...(i.metadataPublic !== undefined ? { metadata_public: i.metadataPublic } : {}),
              ...(i.metadataAdmin !== undefined ? { metadata_admin: i.metadataAdmin } : {}),
              ...(i.passwordHash ? { credentials: { password: { config: { hashed_password: i.passwordHash } } } } : {}),
            },
          })),
        },
      });
      const results = (res.data.identities ?? []).map((r, index) => {
        const error = (r as { error?: { message?: string; reason?: string } }).error;
        const ok = r.action === 'create' && !error;
        return { index, ok, identityId: ok ? (r.identity ?? null) : null, error: ok ? null : (error?.reason ?? error?.message ?? 'Not imported') };
      });
      const imported = results.filter((r) => r.ok).length;
      return { results, imported, failed: results.length - imported };
    }),
});

export type { Identity };
