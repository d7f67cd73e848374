import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, describeZodError, identityConflict, OryError, resourceNotFound, validationFailure } from '../kernel/errors';
import { DATABASE_UNAVAILABLE, isConnectionError, isUniqueViolation } from '../db/errors';
import { hashPassword } from './password';
import { importedHashProblem } from './password-hashes';
import { identityCredentials } from './schema';
import { route } from '../kernel/route';
import type { AdminDeps } from '../kernel/admin-context';
import { createIdentityBody, passwordOf, type CreateIdentityInput } from './bodies';
import { idParams, inputOf, organizationOf, tenantParams } from './routes';
import { findIdentity, insertIdentity } from './store';

const credentialParams = idParams.extend({ type: z.string().regex(/^[a-z_]{1,32}$/, { error: 'must be a credential type' }) });
/** Kratos' limits of one batch (identity/handler.go). */
export const BATCH_LIMIT = 1000;
export const BATCH_PLAINTEXT_LIMIT = 200;
const batchBody = z.object({
  identities: z
    .array(z.object({ create: z.unknown(), patch_id: z.uuid({ error: 'patch_id: must be a UUID' }).optional() }).strict())
    .min(1, { error: 'identities: give at least one' }),
});

/** A refused item as Ory's error content; null for a failure that is not the item's fault (it fails the request). */
function itemFailure(err: unknown): { code: number; status: string; message: string; reason: string } | null {
  const known = isUniqueViolation(err) ? identityConflict() : err instanceof OryError ? err : null;
  if (known) {
    const { error } = known.body as { error: { code: number; status: string; message: string; reason?: string } };
    return { code: error.code, status: error.status, message: error.message, reason: error.reason ?? error.message };
  }
  const invalid = validationFailure(err);
  return invalid ? { code: 400, status: 'Bad Request', message: 'The request was malformed or contained invalid parameters', reason: invalid.reason } : null;
}

type ItemError = { code: number; status: string; message: string; reason: string };
type BatchResult = { action: 'create'; identity: string; patch_id?: string } | { action: 'error'; patch_id?: string; error: ItemError };

/** The item error of identities a lost database connection kept from being imported. */
const NOT_IMPORTED: ItemError = {
  code: 503,
  status: 'Service Unavailable',
  message: 'The service is temporarily unavailable, please try again later',
  reason: `${DATABASE_UNAVAILABLE} This identity was not imported; import it again.`,
};

/**
 * The batch's identities, checked as Kratos does before it writes any: too many of them, one that is no
 * createIdentityBody, a password hash it cannot import, or more than 200 plain-text passwords fail the
 * whole request (400, nothing written). Plain-text passwords are hashed here, outside every transaction.
 */
async function batchCreates(deps: AdminDeps, items: { create?: unknown }[]): Promise<CreateIdentityInput[]> {
  if (items.length > BATCH_LIMIT) {
    throw badRequest(`The maximum number of identities per request that can be created or deleted at once is ${BATCH_LIMIT}.`);
  }
  const creates = items.map((item, index) => {
    const parsed = createIdentityBody.safeParse(item.create);
    if (!parsed.success) throw badRequest(describeZodError(parsed.error, `identities[${index}].create`));
    const password = passwordOf(parsed.data);
    const problem = password.hash ? importedHashProblem(password.hash) : null;
    if (problem) throw badRequest(problem, { index });
    return { create: parsed.data, plain: password.plain };
  });
  if (creates.filter((c) => c.plain).length > BATCH_PLAINTEXT_LIMIT) {
    throw badRequest(`The maximum number of identities per request that can be created with a plaintext password is ${BATCH_PLAINTEXT_LIMIT}.`);
  }
  const hashed: CreateIdentityInput[] = [];
  for (const { create, plain } of creates) {
    hashed.push(plain ? { ...create, credentials: { password: { config: { hashed_password: await hashPassword(plain, deps.hash) } } } } : create);
  }
  return hashed;
}

/**
 * IdentityApi's other admin calls: deleteIdentityCredentials and batchPatchIdentities (imports: each item on its own, so an invalid one never stops or half-writes the rest).
 */
export function registerAdminExtras(scope: FastifyInstance, deps: AdminDeps): void {
  const { ctx } = deps;

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/identities/:id/credentials/:type',
    params: credentialParams,
    auth: 'project-key-or-member',
    status: 204,
    handler: async ({ q, params, tenant, req }) => {
      if (!(await findIdentity(q, tenant.nid, params.id))) throw resourceNotFound('identity');
      const deleted = await q.orm
        .delete(identityCredentials)
        .where(and(eq(identityCredentials.nid, tenant.nid), eq(identityCredentials.identity_id, params.id), eq(identityCredentials.type, params.type)))
        .returning({ type: identityCredentials.type });
      if (deleted.length === 0) throw resourceNotFound(`${params.type} credential of this identity`);
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/admin/identities',
    params: tenantParams,
    body: batchBody,
    auth: 'project-key-or-member',
    transaction: false,
    handler: async ({ body, tenant, req }) => {
      const creates = await batchCreates(deps, body.identities);
      const results: BatchResult[] = [];
      for (const [index, item] of body.identities.entries()) {
        const patchId = item.patch_id ? { patch_id: item.patch_id } : {};
        const create = creates[index]!;
        try {
          // Each identity in its own transaction: a failure leaves nothing of it, and nothing else undone.
          const id = await ctx.db.tx(async (tx) =>
            insertIdentity(tx, tenant.nid, {
              ...(await inputOf(deps, tx, tenant.nid, create)),
              organizationId: await organizationOf(tx, tenant.nid, create.organization_id),
            }),
          );
          results.push({ action: 'create', identity: id, ...patchId });
        } catch (err) {
          const failure = itemFailure(err);
          if (failure) {
            results.push({ action: 'error', ...patchId, error: failure });
            continue;
          }
          // The database went away: with nothing imported the whole call fails (503); otherwise the
          // identities imported so far are answered, and this one and the rest as not imported.
          if (!isConnectionError(err) || !results.some((r) => r.action === 'create')) throw err;
          ctx.log.warn({ err, reqId: req.id }, 'database connection lost during a batch import');
          for (const rest of body.identities.slice(index)) {
            results.push({ action: 'error', ...(rest.patch_id ? { patch_id: rest.patch_id } : {}), error: NOT_IMPORTED });
          }
          break;
        }
      }
      return { identities: results };
    },
  });
}
