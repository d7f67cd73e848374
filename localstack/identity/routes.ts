import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseBody } from '../kernel/body';
import { applyJsonPatch, jsonPatchSchema, parsePointer, type JsonPatch } from '../kernel/json-patch';
import type { Queryable } from '../db/types';
import type { Traits } from './store';
import { badRequest, OryError, resourceNotFound } from '../kernel/errors';
import { hashPassword } from './password';
import { importedHashProblem } from './password-hashes';
import { route } from '../kernel/route';
import type { AdminDeps } from '../kernel/admin-context';
import { createIdentityBody, passwordOf, updateIdentityBody, type UpdateIdentityInput } from './bodies';
import {
  countIdentities,
  deleteIdentity,
  findIdentity,
  insertIdentity,
  listIdentities,
  setAddressVerified,
  updateIdentity,
  type IdentityInput,
  type StoredIdentity,
} from './store';
import { identityView } from './views';
import { decodePageToken, goInt, setLinkHeader, setOffsetPagingHeaders } from '../kernel/paging';
import { checkTraits } from '../identity-schema/check-traits';
import { recordEvent } from '../event/record';
import { identityAnswer } from './answers';
import { sql } from 'drizzle-orm';

const MAX_IDS = 500;
/** Kratos' identity list page sizes (keyset: default 250, at most 500; legacy pages: at most 1,000 rows deep). */
const DEFAULT_PAGE_SIZE = 250;
const MAX_PAGE_SIZE = 500;
const LEGACY_PAGING_LIMIT = 1000;
/** Kratos' credential types (include_credential). */
export const CREDENTIAL_TYPES = ['password', 'oidc', 'totp', 'lookup_secret', 'webauthn', 'code', 'passkey', 'profile', 'saml', 'link_recovery', 'code_recovery'];

export const tenantParams = z.object({ slug: z.string() });
export const idParams = tenantParams.extend({ id: z.uuid({ error: 'must be a UUID' }) });
/** An identity id as Kratos reads it in a path: anything that is no UUID finds no identity (404). */
const identityParams = tenantParams.extend({ id: z.string().max(64) });
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const many = z.union([z.string().max(1024), z.array(z.string().max(1024)).max(1000)]).optional().transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
const listQuery = z.object({
  page_size: z.string().max(32).optional(),
  page_token: z.string().max(1024).optional(),
  per_page: z.string().max(32).optional(),
  page: z.string().max(32).optional(),
  credentials_identifier: z.string().max(1024).optional(),
  // Kratos' similarity search; here any part of an identifier or the name, or any part of an id.
  preview_credentials_identifier_similar: z.string().trim().max(256, { error: 'must be at most 256 characters' }).optional(),
  ids: many,
  include_credential: many,
  // Filters and an order Kratos does not have (it ignores unknown parameters); the console sends them.
  state: z.enum(['active', 'inactive'], { error: 'state must be active or inactive' }).optional(),
  schema_id: z.string().max(512).optional(),
  organization_id: z.string().max(64).optional(),
  order: z.enum(['newest'], { error: 'order must be newest' }).optional(),
});
const getQuery = z.object({ include_credential: many });

/** include_credential as Kratos checks it. */
function credentialTypes(values: string[]): string[] {
  for (const v of values) {
    if (!CREDENTIAL_TYPES.includes(v)) throw badRequest(`Invalid value \`${v}\` for parameter \`include_credential\`.`);
  }
  return values;
}

type ListPaging =
  | { kind: 'keyset'; size: number; token: string | undefined }
  | { kind: 'pages'; page: number; perPage: number };

/** Kratos' choice between keyset paging (page_token, page_size, or per_page alone) and legacy pages (page, per_page). */
function pagingOf(query: z.infer<typeof listQuery>): ListPaging {
  if (query.page_token !== undefined || query.page_size !== undefined || query.page === undefined) {
    const raw = query.page_size ?? (query.page_token === undefined ? query.per_page : undefined);
    const size = raw === undefined || raw === '' ? 0 : goInt(raw);
    if (size === null) throw badRequest(`strconv.Atoi: parsing ${JSON.stringify(raw)}: invalid syntax`);
    return { kind: 'keyset', size: size <= 0 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE), token: query.page_token };
  }
  const page = Math.max(goInt(query.page) ?? 0, 0);
  const perPage = Math.min(Math.max(goInt(query.per_page) ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  if (page * perPage > LEGACY_PAGING_LIMIT) {
    throw badRequest(
      `Legacy pagination is not supported for enumerating over ${LEGACY_PAGING_LIMIT} items. Please switch to using page_token and page_size.`,
    );
  }
  return { kind: 'pages', page, perPage };
}

/** Fields a JSON patch may change; everything else of an identity is read-only to it. */
const PATCHABLE = ['traits', 'state', 'schema_id', 'metadata_public', 'metadata_admin', 'organization_id'];
const VERIFIED_FLAG = /^\/verifiable_addresses\/(0|[1-9]\d*)\/verified$/;

/** Paths Kratos never lets a patch touch (identity/handler.go). */
const DENIED_PATHS = [/^\/id$/, /^\/credentials$/, /^\/credentials\/(oidc|saml)(\/.*)?$/];
const patchFailed = (message: string) => new OryError(400, { reason: 'failed to apply JSON patch', message });

/**
 * Kratos' rules first (only add, remove and replace; never /id or /credentials), in its words; then a 400
 * naming the first path this server keeps read-only.
 */
function guardPatch(patch: JsonPatch): void {
  for (const op of patch) {
    if (!['add', 'remove', 'replace'].includes(op.op)) throw patchFailed(`unsupported operation: ${op.op}`);
    if (DENIED_PATHS.some((denied) => denied.test(op.path.toLowerCase()))) throw patchFailed(`patch includes denied path: ${op.path}`);
  }
  for (const op of patch) {
    for (const path of op.op === 'test' ? [] : [op.path, ...(op.op === 'move' ? [op.from ?? ''] : [])]) {
      const root = parsePointer(path)[0] ?? '';
      if (PATCHABLE.includes(root)) continue;
      if (VERIFIED_FLAG.test(path) && op.op === 'replace') continue;
      throw badRequest(
        `The path ${path} of the identity is read-only: a patch may change /traits, /state, /schema_id, /metadata_public, ` +
          '/metadata_admin, /organization_id and replace /verifiable_addresses/N/verified.',
      );
    }
  }
}

/**
 * An identity's organization as a write gives it: null, or the id of one of the tenant's organizations
 * (a project's tenant id is the project's id; another project's organization is as unknown as none).
 */
export async function organizationOf(q: Queryable, nid: string, value: unknown): Promise<string | null> {
  if (value === null || value === undefined) return null;
  const id = typeof value === 'string' && UUID_TEXT.test(value) ? value.toLowerCase() : null;
  if (!id) throw badRequest('organization_id must be the UUID of one of the project\'s organizations, or null.');
  // The organizations' table is read by name, as sign-in does, so that the identity API does not depend on the control plane's code.
  const answer = (await q.orm.execute(sql`SELECT id FROM organizations WHERE id = ${id}::uuid AND project_id = ${nid}::uuid`)) as unknown as { rows: unknown[] };
  if (answer.rows.length === 0) throw badRequest(`organization_id: no organization ${id} exists in this project.`);
  return id;
}

async function loadOr404(q: Queryable, nid: string, id: string, lock = false): Promise<StoredIdentity> {
  const found = UUID_TEXT.test(id) ? await findIdentity(q, nid, id.toLowerCase(), lock) : null;
  if (!found) throw resourceNotFound('identity');
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
    auth: 'project-key-or-member',
    response: z.array(identityAnswer),
    handler: async ({ q, query, tenant, req, reply }) => {
      const { base } = tenant;
      for (const id of query.ids) {
        if (!UUID_TEXT.test(id)) throw badRequest(`Invalid UUID value \`${id}\` for parameter \`ids\`.`);
      }
      if (query.ids.length > MAX_IDS) throw badRequest(`The number of ids to filter must not exceed ${MAX_IDS}.`);
      if (query.organization_id && !UUID_TEXT.test(query.organization_id)) {
        throw badRequest(`Invalid UUID value \`${query.organization_id}\` for parameter \`organization_id\`.`);
      }
      const filters = [
        query.ids.length > 0,
        Boolean(query.organization_id),
        Boolean(query.credentials_identifier),
        Boolean(query.preview_credentials_identifier_similar),
      ];
      if (filters.filter(Boolean).length > 1) throw badRequest('You cannot combine multiple filters in this API');
      const include = credentialTypes(query.include_credential);
      const paging = pagingOf(query);
      const newestFirst = query.order === 'newest';
      const filter = {
        nid: tenant.nid,
        newestFirst,
        ...(query.ids.length > 0 ? { ids: query.ids.map((id) => id.toLowerCase()) } : {}),
        ...(query.credentials_identifier ? { credentialsIdentifier: query.credentials_identifier.trim().toLowerCase() } : {}),
        ...(query.preview_credentials_identifier_similar ? { search: query.preview_credentials_identifier_similar } : {}),
        ...(query.state ? { state: query.state } : {}),
        ...(query.schema_id ? { schemaId: query.schema_id } : {}),
        ...(query.organization_id ? { organizationId: query.organization_id.toLowerCase() } : {}),
      };
      if (paging.kind === 'pages') {
        const rows = await listIdentities(q, { ...filter, offset: paging.page * paging.perPage, limit: paging.perPage });
        const page = rows.slice(0, paging.perPage);
        // Kratos counts every identity, unless the list looks one identifier up.
        const total = filter.credentialsIdentifier !== undefined ? page.length : await countIdentities(q, tenant.nid);
        setOffsetPagingHeaders(req, reply, total, paging.page, paging.perPage, (search, size, offset) => {
          search.set('per_page', String(size));
          search.set('page', String(Math.trunc(offset / size)));
        });
        return page.map((identity) => identityView(identity, base, include));
      }
      const after = decodePageToken(paging.token, newestFirst);
      const rows = await listIdentities(q, { ...filter, after, limit: paging.size });
      const page = rows.slice(0, paging.size);
      const last = page.at(-1);
      const next = rows.length > paging.size && last ? { id: last.row.id, ...(newestFirst ? { createdAt: last.row.created_at.toISOString() } : {}) } : null;
      setLinkHeader(req, reply, paging.size, next);
      return page.map((identity) => identityView(identity, base, include));
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/admin/identities',
    params: tenantParams,
    body: createIdentityBody,
    auth: 'project-key-or-member',
    response: identityAnswer,
    status: 201,
    handler: async ({ q, body, tenant, req, reply }) => {
      const { base } = tenant;
      const input = await inputOf(deps, q, tenant.nid, body);
      const id = await insertIdentity(q, tenant.nid, { ...input, organizationId: await organizationOf(q, tenant.nid, body.organization_id) });
      await recordEvent(q, ctx.clock, tenant.nid, 'IdentityCreated', { identity_id: id });
      // Kratos names the new identity's admin URL.
      reply.header('location', `${base}/admin/identities/${id}`);
      return identityView(await loadOr404(q, tenant.nid, id), base);
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/admin/identities/:id',
    params: identityParams,
    query: getQuery,
    auth: 'project-key-or-member',
    response: identityAnswer,
    handler: async ({ q, params, query, tenant, req }) => {
      const { base } = tenant;
      const include = credentialTypes(query.include_credential);
      return identityView(await loadOr404(q, tenant.nid, params.id), base, include);
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/admin/identities/:id',
    params: identityParams,
    body: updateIdentityBody,
    auth: 'project-key-or-member',
    response: identityAnswer,
    handler: async ({ q, params, body, tenant, req }) => {
      const { base } = tenant;
      const current = await loadOr404(q, tenant.nid, params.id, true);
      await updateIdentity(q, tenant.nid, current.row, await inputOf(deps, q, tenant.nid, body));
      return identityView(await loadOr404(q, tenant.nid, current.row.id), base);
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/admin/identities/:id',
    params: identityParams,
    body: jsonPatchSchema,
    auth: 'project-key-or-member',
    response: identityAnswer,
    handler: async ({ q, params, body: patch, tenant, req }) => {
      const { base } = tenant;
      guardPatch(patch);
      const current = await loadOr404(q, tenant.nid, params.id, true);
      const patched = applyJsonPatch(identityView(current, base) as unknown as Record<string, unknown>, patch);
      if (patched.state !== current.row.state && patched.state !== 'active' && patched.state !== 'inactive') {
        throw new OryError(400, {
          reason: `The supplied state ('${String(patched.state)}') was not valid. Valid states are ('active', 'inactive').`,
          message: 'identity state is not valid',
        });
      }
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
      if ((patched.organization_id ?? null) !== (current.row.organization_id ?? null)) {
        input.organizationId = await organizationOf(q, tenant.nid, patched.organization_id);
      }
      const flags = new Map<string, boolean>();
      for (const address of (patched.verifiable_addresses ?? []) as { value?: unknown; verified?: unknown }[]) {
        if (typeof address.verified !== 'boolean') throw badRequest('verifiable_addresses: verified must be true or false');
        flags.set(String(address.value), address.verified);
      }
      await updateIdentity(q, tenant.nid, current.row, input);
      for (const address of current.verifiable) {
        const verified = flags.get(address.value);
        if (verified !== undefined && verified !== address.verified && input.identifiers.verifiable.some((a) => a.value === address.value)) {
          await setAddressVerified(q, tenant.nid, current.row.id, address.value, verified);
        }
      }
      return identityView(await loadOr404(q, tenant.nid, current.row.id), base);
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/identities/:id',
    params: identityParams,
    auth: 'project-key-or-member',
    status: 204,
    handler: async ({ q, params, tenant, req }) => {
      const id = UUID_TEXT.test(params.id) ? params.id.toLowerCase() : null;
      if (!id || !(await deleteIdentity(q, tenant.nid, id))) throw resourceNotFound('identity');
      await recordEvent(q, ctx.clock, tenant.nid, 'IdentityDeleted', { identity_id: id });
    },
  });
}

