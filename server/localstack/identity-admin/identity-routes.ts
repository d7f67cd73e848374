import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseBody } from '../controlplane/http';
import { applyJsonPatch, jsonPatchSchema, parsePointer, type JsonPatch } from '../controlplane/json-patch';
import type { Queryable } from '../db/types';
import type { Traits } from '../identity/identities';
import { hashPassword } from '../identity/password';
import { importedHashProblem } from '../identity/password-hashes';
import { route } from '../route';
import { adminOf, type AdminDeps } from './context';
import { badRequest, notFound } from './errors';
import { createIdentityBody, passwordOf, updateIdentityBody, type UpdateIdentityInput } from './identity-body';
import {
  deleteIdentity,
  findIdentity,
  insertIdentity,
  listIdentities,
  setAddressVerified,
  updateIdentity,
  type IdentityInput,
  type StoredIdentity,
} from './identity-store';
import { identityView } from './identity-view';
import { decodePageToken, pageSizeParam, setLinkHeader } from './paging';
import { checkTraits } from './traits-schema';

const MAX_IDS = 500;

export const tenantParams = z.object({ slug: z.string() });
export const idParams = tenantParams.extend({ id: z.uuid({ error: 'must be a UUID' }) });

const listQuery = z.object({
  page_size: pageSizeParam(500),
  page_token: z.string().max(1024).optional(),
  credentials_identifier: z.string().max(1024).optional(),
  // Kratos' similarity search; here any part of an identifier or the name, or a whole id.
  preview_credentials_identifier_similar: z.string().trim().max(256, { error: 'must be at most 256 characters' }).optional(),
  ids: z
    .union([z.uuid(), z.array(z.uuid()).max(MAX_IDS)], { error: `ids must be identity ids (UUIDs), at most ${MAX_IDS}` })
    .optional(),
  // Filters Kratos does not have (it ignores unknown parameters); the console sends them and filters again.
  state: z.enum(['active', 'inactive'], { error: 'state must be active or inactive' }).optional(),
  schema_id: z.string().max(512).optional(),
});

/** Fields a JSON patch may change; everything else of an identity is read-only to it. */
const PATCHABLE = ['traits', 'state', 'schema_id', 'metadata_public', 'metadata_admin'];
const VERIFIED_FLAG = /^\/verifiable_addresses\/(0|[1-9]\d*)\/verified$/;

/** 400 naming the first path of the patch that is read-only (a `test` or a `copy` source may read anything). */
function guardPatch(patch: JsonPatch): void {
  for (const op of patch) {
    for (const path of op.op === 'test' ? [] : [op.path, ...(op.op === 'move' ? [op.from ?? ''] : [])]) {
      const root = parsePointer(path)[0] ?? '';
      if (PATCHABLE.includes(root)) continue;
      if (VERIFIED_FLAG.test(path) && op.op === 'replace') continue;
      throw badRequest(
        `The path ${path} of the identity is read-only: a patch may change /traits, /state, /schema_id, /metadata_public, ` +
          '/metadata_admin and replace /verifiable_addresses/N/verified.',
      );
    }
  }
}

async function loadOr404(q: Queryable, nid: string, id: string, lock = false): Promise<StoredIdentity> {
  const found = await findIdentity(q, nid, id, lock);
  if (!found) throw notFound('identity');
  return found;
}

/** The checked write: schema, traits against it, a password hashed with the stack's argon2 settings. */
export async function inputOf(
  deps: AdminDeps,
  q: Queryable,
  nid: string,
  body: UpdateIdentityInput,
  keepMetadata?: StoredIdentity,
): Promise<IdentityInput> {
  const { schemaId, identifiers } = await checkTraits(q, nid, body.schema_id, body.traits);
  const password = passwordOf(body);
  if ((password.plain || password.hash) && !identifiers.password) {
    throw badRequest(
      'credentials.password: the identity schema marks no trait as the password identifier ("ory.sh/kratos": {"credentials": {"password": {"identifier": true}}}), or the traits leave it empty.',
    );
  }
  if (password.hash) {
    const problem = importedHashProblem(password.hash);
    if (problem) throw badRequest(problem);
  }
  const passwordHash = password.plain ? await hashPassword(password.plain, deps.hash) : password.hash;
  return {
    schemaId,
    traits: body.traits as Traits,
    state: body.state,
    metadataPublic: body.metadata_public === undefined ? keepMetadata?.row.metadata_public : body.metadata_public,
    metadataAdmin: body.metadata_admin === undefined ? keepMetadata?.row.metadata_admin : body.metadata_admin,
    identifiers,
    ...(passwordHash ? { passwordHash } : {}),
  };
}

/**
 * IdentityApi: listIdentities, createIdentity, getIdentity, updateIdentity, patchIdentity, deleteIdentity.
 * Writes run in one transaction: a taken identifier or address (409) leaves nothing behind.
 */
export function registerIdentityRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  const { ctx } = deps;

  route(scope, ctx, {
    method: 'GET',
    url: '/admin/identities',
    params: tenantParams,
    query: listQuery,
    auth: 'public',
    handler: async ({ q, query, req, reply }) => {
      const { tenant, base } = adminOf(req);
      const after = decodePageToken(query.page_token, false);
      const ids = query.ids === undefined ? undefined : Array.isArray(query.ids) ? query.ids : [query.ids];
      const rows = await listIdentities(q, {
        nid: tenant.nid,
        afterId: after?.id ?? null,
        limit: query.page_size,
        ...(ids ? { ids: ids.map((id) => id.toLowerCase()) } : {}),
        ...(query.credentials_identifier !== undefined
          ? { credentialsIdentifier: query.credentials_identifier.trim().toLowerCase() }
          : {}),
        ...(query.preview_credentials_identifier_similar ? { search: query.preview_credentials_identifier_similar } : {}),
        ...(query.state ? { state: query.state } : {}),
        ...(query.schema_id ? { schemaId: query.schema_id } : {}),
      });
      const page = rows.slice(0, query.page_size);
      const last = page.at(-1);
      setLinkHeader(req, reply, query.page_size, rows.length > query.page_size && last ? { id: last.row.id } : null);
      return page.map((identity) => identityView(identity, base));
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/admin/identities',
    params: tenantParams,
    body: createIdentityBody,
    auth: 'public',
    status: 201,
    handler: async ({ q, body, req }) => {
      const { tenant, base } = adminOf(req);
      const id = await insertIdentity(q, tenant.nid, await inputOf(deps, q, tenant.nid, body));
      return identityView(await loadOr404(q, tenant.nid, id), base);
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/admin/identities/:id',
    params: idParams,
    auth: 'public',
    handler: async ({ q, params, req }) => {
      const { tenant, base } = adminOf(req);
      return identityView(await loadOr404(q, tenant.nid, params.id), base);
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/admin/identities/:id',
    params: idParams,
    body: updateIdentityBody,
    auth: 'public',
    handler: async ({ q, params, body, req }) => {
      const { tenant, base } = adminOf(req);
      const current = await loadOr404(q, tenant.nid, params.id, true);
      await updateIdentity(q, tenant.nid, current.row, await inputOf(deps, q, tenant.nid, body));
      return identityView(await loadOr404(q, tenant.nid, params.id), base);
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/admin/identities/:id',
    params: idParams,
    body: jsonPatchSchema,
    auth: 'public',
    handler: async ({ q, params, body: patch, req }) => {
      const { tenant, base } = adminOf(req);
      guardPatch(patch);
      const current = await loadOr404(q, tenant.nid, params.id, true);
      const patched = applyJsonPatch(identityView(current, base) as unknown as Record<string, unknown>, patch);
      const body = parseBody(
        updateIdentityBody,
        {
          schema_id: patched.schema_id,
          traits: patched.traits,
          state: patched.state,
          metadata_public: patched.metadata_public,
          metadata_admin: patched.metadata_admin,
        },
        'patched identity',
      );
      const input = await inputOf(deps, q, tenant.nid, body, current);
      const flags = new Map<string, boolean>();
      for (const address of (patched.verifiable_addresses ?? []) as { value?: unknown; verified?: unknown }[]) {
        if (typeof address.verified !== 'boolean') throw badRequest('verifiable_addresses: verified must be true or false');
        flags.set(String(address.value), address.verified);
      }
      await updateIdentity(q, tenant.nid, current.row, input);
      for (const address of current.verifiable) {
        const verified = flags.get(address.value);
        if (verified !== undefined && verified !== address.verified && input.identifiers.verifiable.some((a) => a.value === address.value)) {
          await setAddressVerified(q, tenant.nid, params.id, address.value, verified);
        }
      }
      return identityView(await loadOr404(q, tenant.nid, params.id), base);
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/identities/:id',
    params: idParams,
    auth: 'public',
    status: 204,
    handler: async ({ q, params, req }) => {
      if (!(await deleteIdentity(q, adminOf(req).tenant.nid, params.id))) throw notFound('identity');
    },
  });
}

