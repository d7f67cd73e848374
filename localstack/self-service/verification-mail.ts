import type { Queryable } from '../db/types';
import { issueCode } from './codes';
import { sendTemplated } from '../courier/templates';
import type { IdentityDeps } from '../kernel/identity-deps';
import { createFlow, type FlowRow } from './flows';
import { identitySettings } from '../kernel/identity-settings';
import { flowUiLink } from './flow-routes';
import { getTraits, markAddressSent } from '../identity/store';
import { enterCodeNodes } from './nodes';
import type { Tenant } from '../kernel/tenant';
import { texts } from './texts';

/** Sends a verification code to `email` within an existing verification flow. */
export async function sendVerificationCode(
  deps: IdentityDeps,
  q: Queryable,
  nid: string,
  flowId: string,
  identityId: string,
  email: string,
  requestUrl?: string,
): Promise<void> {
  const code = await issueCode(q, { nid, flowId, kind: 'verification', identityId, address: email, lifespanMs: deps.codeLifespanMs, now: deps.ctx.clock.now() });
  await markAddressSent(q, nid, identityId, email);
  const traits = (await getTraits(q, nid, identityId)) ?? { email };
  await sendTemplated(deps, q, nid, {
    to: email,
    template: 'verification_code',
    variant: 'valid',
    data: {
      VerificationCode: code,
      VerificationURL: requestUrl ?? '',
      Identity: { id: identityId, traits },
      ExpiresInMinutes: Math.round(deps.codeLifespanMs / 60_000),
      RequestURL: requestUrl ?? '',
      TransientPayload: {},
    },
  });
}

/** Starts a verification flow with a code already sent (after registration or an email change). */
export async function startVerification(
  deps: IdentityDeps,
  q: Queryable,
  tenant: Tenant,
  args: { csrf: string; identityId: string; email: string; requestUrl: string; returnTo?: string | null; type?: 'browser' | 'api' },
): Promise<{ flow: FlowRow; continueWith: Record<string, unknown> }> {
  const flow = await createFlow(q, {
    nid: tenant.nid,
    kind: 'verification',
    type: args.type ?? 'browser',
    state: 'sent_email',
    csrfToken: args.csrf,
    requestUrl: args.requestUrl,
    returnTo: args.returnTo ?? null,
    ui: { nodes: enterCodeNodes(args.csrf, args.email, 'verification'), messages: [texts.verificationCodeSent()] },
    data: { email: args.email },
    lifespanMs: deps.flowLifespanMs,
    now: deps.ctx.clock.now(),
  });
  await sendVerificationCode(deps, q, tenant.nid, flow.id, args.identityId, args.email, args.requestUrl);
  if (flow.type === 'api') return { flow, continueWith: { action: 'show_verification_ui', flow: { id: flow.id, verifiable_address: args.email } } };
  return {
    flow,
    continueWith: {
      action: 'show_verification_ui',
      flow: { id: flow.id, verifiable_address: args.email, url: flowUiLink(tenant, await identitySettings(q, tenant.nid), 'verification', { flow: flow.id }) },
    },
  };
}
