import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { describeZodError, validationFailure } from '../controlplane/errors';
import { isUniqueViolation } from '../db/errors';
import { OryHttpError } from '../identity/errors';
import { issueCode, issueLinkToken } from '../identity/codes';
import { createFlow } from '../identity/flows';
import { enterCodeNodes } from '../identity/nodes';
import { identityCredentials, identityRecoveryAddresses } from '../identity/schema';
import { texts } from '../identity/texts';
import type { Queryable } from '../db/types';
import { route } from '../route';
import { adminOf, type AdminDeps } from './context';
import { badRequest, identityConflict, notFound } from './errors';
import { createIdentityBody } from './identity-body';
import { idParams, inputOf, tenantParams } from './identity-routes';
import { findIdentity, insertIdentity } from './identity-store';

const credentialParams = idParams.extend({ type: z.string().regex(/^[a-z_]{1,32}$/, { error: 'must be a credential type' }) });
const recoveryBody = z.object({
  identity_id: z.uuid({ error: 'identity_id: must be the UUID of an identity' }),
  expires_in: z.string().regex(/^\d+[smh]$/, { error: 'expires_in: must be a duration such as 1h or 15m' }).optional(),
});
const batchBody = z.object({
  identities: z
    .array(z.object({ create: z.unknown(), patch_id: z.string().max(64).optional() }).strict())
    .min(1, { error: 'identities: give at least one' })
    .max(1000, { error: 'identities: at most 1,000 at a time' }),
});

/** A refused item as Ory's error content; null for a failure that is not the item's fault (it fails the request). */
function itemFailure(err: unknown): { code: number; status: string; message: string; reason: string } | null {
  const known = isUniqueViolation(err) ? identityConflict() : err instanceof OryHttpError ? err : null;
  if (known) {
    const { error } = known.body as { error: { code: number; status: string; message: string; reason?: string } };
    return { code: error.code, status: error.status, message: error.message, reason: error.reason ?? error.message };
  }
  const invalid = validationFailure(err);
  return invalid ? { code: 400, status: 'Bad Request', message: 'The request was malformed or contained invalid parameters', reason: invalid.reason } : null;
}

const durationMs = (value: string | undefined, fallbackMs: number) => {
  if (!value) return fallbackMs;
  const n = Number(value.slice(0, -1));
  return n * { s: 1000, m: 60_000, h: 3_600_000 }[value.at(-1) as 's' | 'm' | 'h'];
};

/** The identity's recovery address; 404 for no such identity, 400 when its schema marks no trait for recovery. */
async function recoveryAddressOf(q: Queryable, nid: string, identityId: string): Promise<string> {
  if (!(await findIdentity(q, nid, identityId))) throw notFound('identity');
  const [address] = await q.orm
    .select({ value: identityRecoveryAddresses.value })
    .from(identityRecoveryAddresses)
    .where(and(eq(identityRecoveryAddresses.nid, nid), eq(identityRecoveryAddresses.identity_id, identityId)));
  if (!address) throw badRequest('The identity has no recovery address: its schema marks none of its traits for recovery.');
  return address.value;
}

/**
 * IdentityApi's other admin calls: deleteIdentityCredentials, createRecoveryLinkForIdentity, createRecoveryCodeForIdentity and
 * batchPatchIdentities (imports: each item on its own, so an invalid one never stops or half-writes the rest).
 */
export function registerAdminExtras(scope: FastifyInstance, deps: AdminDeps): void {
  const { ctx } = deps;
  const codeLifespanMs = deps.codeLifespanMs ?? 15 * 60_000;
  const flowLifespanMs = deps.flowLifespanMs ?? 60 * 60_000;

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/identities/:id/credentials/:type',
    params: credentialParams,
    auth: 'public',
    status: 204,
    handler: async ({ q, params, req }) => {
      const { tenant } = adminOf(req);
      if (!(await findIdentity(q, tenant.nid, params.id))) throw notFound('identity');
      const deleted = await q.orm
        .delete(identityCredentials)
        .where(and(eq(identityCredentials.nid, tenant.nid), eq(identityCredentials.identity_id, params.id), eq(identityCredentials.type, params.type)))
        .returning({ type: identityCredentials.type });
      if (deleted.length === 0) throw notFound(`${params.type} credential of this identity`);
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/admin/recovery/link',
    params: tenantParams,
    body: recoveryBody,
    auth: 'public',
    handler: async ({ q, body, req }) => {
      const { tenant, base } = adminOf(req);
      const identityId = body.identity_id.toLowerCase();
      const address = await recoveryAddressOf(q, tenant.nid, identityId);
      const lifespanMs = durationMs(body.expires_in, codeLifespanMs);
      // A browser recovery flow that only the link's token completes: opening it signs the identity in.
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
      const token = await issueLinkToken(q, { nid: tenant.nid, flowId: flow.id, identityId, address, lifespanMs });
      const link = new URL(`${base}/self-service/recovery`);
      link.search = new URLSearchParams({ flow: flow.id, token }).toString();
      return { recovery_link: link.toString(), expires_at: new Date(Date.now() + lifespanMs).toISOString() };
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/admin/recovery/code',
    params: tenantParams,
    body: recoveryBody,
    auth: 'public',
    status: 201,
    handler: async ({ q, body, req }) => {
      const { tenant, base } = adminOf(req);
      const identityId = body.identity_id.toLowerCase();
      const address = { value: await recoveryAddressOf(q, tenant.nid, identityId) };
      const lifespanMs = durationMs(body.expires_in, codeLifespanMs);
      // A recovery flow for native apps and the hosted UI alike, waiting for this code.
      const flow = await createFlow(q, {
        nid: tenant.nid,
        kind: 'recovery',
        type: 'api',
        state: 'sent_email',
        csrfToken: '',
        requestUrl: `${base}/self-service/recovery/api`,
        identityId,
        ui: { nodes: enterCodeNodes('', address.value, 'recovery').filter((n) => (n.attributes as { name?: string }).name !== 'csrf_token'), messages: [texts.recoveryCodeSent()] },
        data: { email: address.value, attempts: 0 },
        lifespanMs: Math.max(lifespanMs, flowLifespanMs),
        now: ctx.clock.now(),
      });
      const code = await issueCode(q, { nid: tenant.nid, flowId: flow.id, kind: 'recovery', identityId, address: address.value, lifespanMs });
      return {
        recovery_link: `${base}/self-service/recovery?flow=${flow.id}`,
        recovery_code: code,
        expires_at: new Date(Date.now() + lifespanMs).toISOString(),
      };
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/admin/identities',
    params: tenantParams,
    body: batchBody,
    auth: 'public',
    transaction: false,
    handler: async ({ body, req }) => {
      const { tenant } = adminOf(req);
      const results = [];
      for (const item of body.identities) {
        const parsed = createIdentityBody.safeParse(item.create);
        const patchId = item.patch_id ? { patch_id: item.patch_id } : {};
        if (!parsed.success) {
          results.push({ action: 'error', ...patchId, error: { code: 400, status: 'Bad Request', message: 'The request was malformed or contained invalid parameters', reason: describeZodError(parsed.error, 'identity') } });
          continue;
        }
        try {
          // Each identity in its own transaction: a failure leaves nothing of it, and nothing else undone.
          const id = await ctx.db.tx(async (tx) => insertIdentity(tx, tenant.nid, await inputOf(deps, tx, tenant.nid, parsed.data)));
          results.push({ action: 'create', identity: id, ...patchId });
        } catch (err) {
          const failure = itemFailure(err);
          if (!failure) throw err;
          results.push({ action: 'error', ...patchId, error: failure });
        }
      }
      return { identities: results };
    },
  });
}
