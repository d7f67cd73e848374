import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, OryError, RESOURCE_NOT_FOUND } from '../kernel/errors';
import { uiLink } from '../kernel/http';
import type { Queryable } from '../db/types';
import { route } from '../kernel/route';
import type { AdminDeps } from '../kernel/admin-context';
import { formatGoDuration, parseGoDuration } from '../kernel/go-duration';
import { identityRecoveryAddresses } from '../identity/schema';
import { tenantParams } from '../identity/routes';
import { findIdentity } from '../identity/store';
import { issueCode, issueLinkToken } from './codes';
import { createFlow } from './flows';
import { enterCodeNodes } from './nodes';
import { texts } from './texts';

const recoveryBody = z.object({
  identity_id: z.uuid({ error: 'identity_id: must be the UUID of an identity' }),
  // A Go duration ("1h", "1m30s"), read as Kratos reads it in the handler.
  expires_in: z.string().max(64, { error: 'expires_in: must be a duration such as 1h or 15m' }).optional(),
});

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

/**
 * IdentityApi's createRecoveryLinkForIdentity and createRecoveryCodeForIdentity: a recovery flow an admin
 * starts for an identity, answered with the link or the code that completes it.
 */
export function registerAdminRecovery(scope: FastifyInstance, deps: AdminDeps): void {
  const { ctx } = deps;
  const linkLifespanMs = deps.linkLifespanMs ?? RECOVERY_LIFESPAN_MS;
  const codeLifespanMs = deps.codeLifespanMs ?? RECOVERY_LIFESPAN_MS;

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
}
