import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, describeZodError, identityConflict, OryError, RESOURCE_NOT_FOUND, resourceNotFound, validationFailure } from '../kernel/errors';
import { DATABASE_UNAVAILABLE, isConnectionError, isUniqueViolation } from '../db/errors';
import { hashPassword } from './password';
import { importedHashProblem } from './password-hashes';
import { issueCode, issueLinkToken } from '../self-service/codes';
import { createFlow } from '../self-service/flows';
import { enterCodeNodes } from '../self-service/nodes';
import { identityCredentials, identityRecoveryAddresses } from './schema';
import { uiLink } from '../kernel/http';
import { texts } from '../self-service/texts';
import type { Queryable } from '../db/types';
import { route } from '../kernel/route';
import type { AdminDeps } from '../kernel/admin-context';
import { formatGoDuration, parseGoDuration } from '../kernel/go-duration';
import { createIdentityBody, passwordOf, type CreateIdentityInput } from './bodies';
import { idParams, inputOf, organizationOf, tenantParams } from './routes';
import { findIdentity, insertIdentity } from './store';

const credentialParams = idParams.extend({ type: z.string().regex(/^[a-z_]{1,32}$/, { error: 'must be a credential type' }) });
const recoveryBody = z.object({
  identity_id: z.uuid({ error: 'identity_id: must be the UUID of an identity' }),
  // A Go duration ("1h", "1m30s"), read as Kratos reads it in the handler.
  expires_in: z.string().max(64, { error: 'expires_in: must be a duration such as 1h or 15m' }).optional(),
});
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

/** Kratos' default lifespan of an admin recovery link and of an admin recovery code (`selfservice.methods.*.config.lifespan`). */
export const RECOVERY_LIFESPAN_MS = 60 * 60_000;

/**
 * The lifespan `expires_in` asks for (the default when empty), as Kratos reads it: a Go duration, refused
 * with `unparsable(raw)` when it is none and with `notFuture(raw, duration)` when it is not positive.
 */
function lifespanOf(
  raw: string | undefined,
  fallbackMs: number,
  texts: { notFuture: (raw: string, duration: bigint) => string },
): number {
  if (!raw) return fallbackMs;
  const ns = parseGoDuration(raw);
  if (ns === null) throw badRequest(`Unable to parse "expires_in" as a duration string (e.g. "1h", "1m30s", "500ms"): ${raw}`);
  if (ns <= 0n) throw badRequest(texts.notFuture(raw, ns));
  return Number(ns) / 1_000_000;
}

/** The identity's recovery address ('' when its schema marks none: an admin link or code needs none). */
async function recoveryAddressOf(q: Queryable, nid: string, identityId: string): Promise<string> {
  const [address] = await q.orm
    .select({ value: identityRecoveryAddresses.value })
    .from(identityRecoveryAddresses)
    .where(and(eq(identityRecoveryAddresses.nid, nid), eq(identityRecoveryAddresses.identity_id, identityId)));
  return address?.value ?? '';
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
 * IdentityApi's other admin calls: deleteIdentityCredentials, createRecoveryLinkForIdentity, createRecoveryCodeForIdentity and
 * batchPatchIdentities (imports: each item on its own, so an invalid one never stops or half-writes the rest).
 */
export function registerAdminExtras(scope: FastifyInstance, deps: AdminDeps): void {
  const { ctx } = deps;
  const linkLifespanMs = deps.linkLifespanMs ?? RECOVERY_LIFESPAN_MS;
  const codeLifespanMs = deps.codeLifespanMs ?? RECOVERY_LIFESPAN_MS;

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
    method: 'POST',
    url: '/admin/recovery/link',
    params: tenantParams,
    body: recoveryBody,
    auth: 'project-key-or-member',
    handler: async ({ q, body, tenant, req }) => {
      const { base } = tenant;
      const lifespanMs = lifespanOf(body.expires_in, linkLifespanMs, {
        notFuture: (raw) => `Value from "expires_in" must be result to a future time: ${raw}`,
      });
      const identityId = body.identity_id.toLowerCase();
      if (!(await findIdentity(q, tenant.nid, identityId))) throw badRequest('The requested identity id does not exist.');
      const address = await recoveryAddressOf(q, tenant.nid, identityId);
      // A browser recovery flow that only the link's token completes: opening it signs the identity in
      // (an identity that is inactive by then gets Kratos' identity_disabled error instead).
      const flow = await createFlow(q, {
        nid: tenant.nid,
        kind: 'recovery',
        state: 'sent_email',
        csrfToken: '',
        requestUrl: `${base}/self-service/recovery/browser`,
        identityId,
        ui: { nodes: [], messages: [] },
        data: { email: address, attempts: 0 },
        lifespanMs,
        now: ctx.clock.now(),
      });
      const token = await issueLinkToken(q, { nid: tenant.nid, flowId: flow.id, identityId, address, lifespanMs, now: ctx.clock.now() });
      const link = new URL(`${base}/self-service/recovery`);
      link.search = new URLSearchParams({ flow: flow.id, token }).toString();
      return { recovery_link: link.toString(), expires_at: flow.expires_at.toISOString() };
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/admin/recovery/code',
    params: tenantParams,
    body: recoveryBody,
    auth: 'project-key-or-member',
    status: 201,
    handler: async ({ q, body, tenant, req }) => {
      const { base } = tenant;
      const lifespanMs = lifespanOf(body.expires_in, codeLifespanMs, {
        notFuture: (_raw, duration) => `Value from "expires_in" must result to a future time: ${formatGoDuration(duration)}`,
      });
      const identityId = body.identity_id.toLowerCase();
      if (!(await findIdentity(q, tenant.nid, identityId))) {
        throw new OryError(404, { message: RESOURCE_NOT_FOUND, reason: 'could not find identity' });
      }
      const address = await recoveryAddressOf(q, tenant.nid, identityId);
      // A recovery flow for native apps and the hosted UI alike, waiting for this code; it lives as long as the code.
      const flow = await createFlow(q, {
        nid: tenant.nid,
        kind: 'recovery',
        type: 'api',
        state: 'sent_email',
        csrfToken: '',
        requestUrl: `${base}/self-service/recovery/api`,
        identityId,
        ui: { nodes: enterCodeNodes('', address, 'recovery').filter((n) => (n.attributes as { name?: string }).name !== 'csrf_token'), messages: [texts.recoveryCodeSent()] },
        data: { email: address, attempts: 0 },
        lifespanMs,
        now: ctx.clock.now(),
      });
      const code = await issueCode(q, { nid: tenant.nid, flowId: flow.id, kind: 'recovery', identityId, address, lifespanMs, now: ctx.clock.now() });
      return {
        // Kratos links the recovery UI, where the code is entered.
        recovery_link: uiLink(tenant.uiUrl, '/recovery', { flow: flow.id }),
        recovery_code: code,
        expires_at: flow.expires_at.toISOString(),
      };
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
