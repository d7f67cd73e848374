import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseBody, parseQuery, pathId } from '../controlplane/http';
import { applyJsonPatch, jsonPatchSchema, parsePointer, type JsonPatch } from '../controlplane/json-patch';
import { isUniqueViolation } from '../db/errors';
import type { Queryable } from '../db/types';
import { OryHttpError } from '../identity/errors';
import type { Traits } from '../identity/identities';
import { hashPassword } from '../identity/password';
import { adminRequest, type AdminDeps } from './context';
import { badRequest, identityConflict, notFound } from './errors';
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
import { checkSchemaId, checkTraits } from './traits-schema';

const MAX_IDS = 500;

const listQuery = z.object({
  page_size: pageSizeParam(500),
  page_token: z.string().max(1024).optional(),
  credentials_identifier: z.string().max(1024).optional(),
  ids: z
    .union([z.uuid(), z.array(z.uuid()).max(MAX_IDS)], { error: `ids must be identity ids (UUIDs), at most ${MAX_IDS}` })
    .optional(),
});

/** Fields a JSON patch may change; everything else of an identity is read-only to it. */
const PATCHABLE = ['traits', 'state', 'schema_id', 'metadata_public', 'metadata_admin'];
const VERIFIED_FLAG = /^\/verifiable_addresses\/(0|[1-9]\d*)\/verified$/;

/** 400 naming the first path of the patch that is read-only (a `test` may read anything). */
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
async function inputOf(deps: AdminDeps, body: UpdateIdentityInput, keepMetadata?: StoredIdentity): Promise<IdentityInput> {
  const schemaId = checkSchemaId(body.schema_id);
  const email = checkTraits(body.traits);
  const password = passwordOf(body);
  const passwordHash = password.plain ? await hashPassword(password.plain, deps.hash) : password.hash;
  return {
    schemaId,
    traits: body.traits as Traits,
    state: body.state,
    metadataPublic: body.metadata_public === undefined ? keepMetadata?.row.metadata_public : body.metadata_public,
    metadataAdmin: body.metadata_admin === undefined ? keepMetadata?.row.metadata_admin : body.metadata_admin,
    email,
    ...(passwordHash ? { passwordHash } : {}),
  };
}

/** Runs a write; a duplicate identifier or address is Kratos' 409, and the transaction leaves nothing behind. */
async function writing<T>(deps: AdminDeps, fn: (q: Queryable) => Promise<T>): Promise<T> {
  try {
    return await deps.ctx.db.tx(fn);
  } catch (err) {
    if (isUniqueViolation(err)) throw identityConflict();
    throw err;
  }
}

/** IdentityApi: listIdentities, createIdentity, getIdentity, updateIdentity, patchIdentity, deleteIdentity. */
export function registerIdentityRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  scope.get('/admin/identities', async (req, reply) => {
    const { tenant, base } = await adminRequest(deps, req);
    const query = parseQuery(listQuery, req.query);
    const after = decodePageToken(query.page_token, false);
    const ids = query.ids === undefined ? undefined : Array.isArray(query.ids) ? query.ids : [query.ids];
    const rows = await listIdentities(deps.ctx.db, {
      nid: tenant.nid,
      afterId: after?.id ?? null,
      limit: query.page_size,
      ...(ids ? { ids: ids.map((id) => id.toLowerCase()) } : {}),
      ...(query.credentials_identifier !== undefined
        ? { credentialsIdentifier: query.credentials_identifier.trim().toLowerCase() }
        : {}),
    });
    const page = rows.slice(0, query.page_size);
    const last = page.at(-1);
    setLinkHeader(req, reply, query.page_size, rows.length > query.page_size && last ? { id: last.row.id } : null);
    return page.map((identity) => identityView(identity, base));
  });

  scope.post('/admin/identities', async (req, reply) => {
    const { tenant, base } = await adminRequest(deps, req);
    const body = parseBody(createIdentityBody, req.body);
    const input = await inputOf(deps, body);
    const created = await writing(deps, async (q) => {
      const id = await insertIdentity(q, tenant.nid, input);
      return loadOr404(q, tenant.nid, id);
    });
    return reply.code(201).send(identityView(created, base));
  });

  scope.get('/admin/identities/:id', async (req) => {
    const { tenant, base } = await adminRequest(deps, req);
    return identityView(await loadOr404(deps.ctx.db, tenant.nid, pathId(req, 'id')), base);
  });

  scope.put('/admin/identities/:id', async (req) => {
    const { tenant, base } = await adminRequest(deps, req);
    const id = pathId(req, 'id');
    const body = parseBody(updateIdentityBody, req.body);
    const input = await inputOf(deps, body);
    const updated = await writing(deps, async (q) => {
      const current = await loadOr404(q, tenant.nid, id, true);
      await updateIdentity(q, tenant.nid, current.row, input);
      return loadOr404(q, tenant.nid, id);
    });
    return identityView(updated, base);
  });

  scope.patch('/admin/identities/:id', async (req) => patchIdentity(deps, req));

  scope.delete('/admin/identities/:id', async (req, reply) => {
    const { tenant } = await adminRequest(deps, req);
    const id = pathId(req, 'id');
    if (!(await deleteIdentity(deps.ctx.db, tenant.nid, id))) throw notFound('identity');
    return reply.code(204).send();
  });
}

/**
 * patchIdentity: RFC 6902 on the identity's wire form. Only the writable fields may change (see
 * guardPatch); the result is checked like a PUT body, so the traits still match the schema.
 */
async function patchIdentity(deps: AdminDeps, req: FastifyRequest) {
  const { tenant, base } = await adminRequest(deps, req);
  const id = pathId(req, 'id');
  const patch = parseBody(jsonPatchSchema, req.body, 'JSON patch');
  guardPatch(patch);
  const current = await loadOr404(deps.ctx.db, tenant.nid, id);
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
  const input = await inputOf(deps, body, current);
  const flags = new Map<string, boolean>();
  for (const address of (patched.verifiable_addresses ?? []) as { value?: unknown; verified?: unknown }[]) {
    if (typeof address.verified !== 'boolean') throw badRequest('verifiable_addresses: verified must be true or false');
    flags.set(String(address.value), address.verified);
  }
  const updated = await writing(deps, async (q) => {
    const locked = await loadOr404(q, tenant.nid, id, true);
    if (locked.row.updated_at.getTime() !== current.row.updated_at.getTime()) {
      throw new OryHttpError(409, {
        reason: 'The identity was changed while the patch was applied; fetch it again and retry.',
      });
    }
    await updateIdentity(q, tenant.nid, locked.row, input);
    for (const address of locked.verifiable) {
      const verified = flags.get(address.value);
      if (verified !== undefined && verified !== address.verified && address.value === input.email) {
        await setAddressVerified(q, tenant.nid, id, address.value, verified);
      }
    }
    return loadOr404(q, tenant.nid, id);
  });
  return identityView(updated, base);
}
