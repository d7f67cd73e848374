import type { UiNodeInputAttributes } from '@ory/client';
import type { IdentityDeps } from '../kernel/identity-deps';
import type { JsonObject } from '../kernel/tenant-config';
import { codeIdentifiers } from '../../shared/domain/identity-schema-extension';
import { sendTemplated } from '../courier/templates';
import { countOrRefuseCodeAttempt, issueRegistrationCodes, redeemRegistrationCode, resetCodeAttempts } from './codes';
import { BUILT_IN_CODE_SCHEMA } from './code-login';
import { addNodeMessage, input, submit, type UiNode } from './nodes';
import { texts } from './texts';
import type { SubmitArgs } from './flow-routes';

/*
 * Sign-up with a one-time code, as Kratos' `code` strategy with `passwordless_enabled`: the traits are submitted
 * with `method=code`, each code identifier among them gets a 6-digit code (`registration_code` template, valid
 * variant), and the flow moves to `sent_email` with the traits kept (hidden) and a code input. The same traits
 * with a right code create the identity, its address verified. A code works once, ends with the code method's
 * lifespan, and a flow takes `max_submissions` code submissions until a new code is sent, as for sign-in codes.
 */

/** The "Send sign up code" button a registration flow offers beside the traits. */
export const codeRegistrationNodes = (): UiNode[] => [submit('code', 'code', texts.sendSignUpCode())];

const isSubmit = (n: UiNode) => n.attributes.node_type === 'input' && n.attributes.type === 'submit';

/**
 * The nodes once a code was sent (Kratos' populateEmailSentFlow): the form's own fields without the buttons and
 * other methods, a field without a message hidden, then the code, Continue and Resend.
 */
export function sentRegistrationCodeNodes(nodes: UiNode[]): UiNode[] {
  const kept = nodes
    .filter((n) => n.group === 'default' && !isSubmit(n))
    .map((n): UiNode => {
      const copy = structuredClone(n);
      if (copy.messages.length === 0 && copy.attributes.node_type === 'input') (copy.attributes as UiNodeInputAttributes).type = 'hidden';
      return copy;
    });
  return [
    ...kept,
    input('code', 'method', 'hidden', { value: 'code' }),
    input('code', 'code', 'text', { required: true, autocomplete: 'one-time-code', label: texts.labelRegistrationCode() }),
    submit('code', 'code', texts.labelContinue()),
    input('code', 'resend', 'submit', { value: 'code', label: texts.labelResendCode() }),
  ];
}

/** The same traits whatever order their keys came in, to compare a submission with the one the code was sent for. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A code reached this address: the identity may be created with it verified. Else the flow to show again. */
export type CodeRegistrationOutcome = { verified: string } | { status: 400; failed: boolean };

/**
 * The submission of a registration flow with `method=code` (or `resend=code`), its traits validated by the caller
 * (`traits` null when they failed, their messages on the nodes): sends a code, or redeems one.
 */
export async function submitCodeRegistration(
  deps: IdentityDeps,
  args: SubmitArgs,
  schema: JsonObject | null,
  traits: Record<string, unknown> | null,
): Promise<CodeRegistrationOutcome> {
  const { flow, body, db, settings } = args;
  if (flow.state === 'passed_challenge') {
    flow.ui.messages = [texts.noStrategy('registration')];
    return { status: 400, failed: true };
  }
  const resend = typeof body.resend === 'string' && body.resend.toLowerCase() === 'code';
  const sending = flow.state !== 'sent_email' || resend;
  const code = body.code?.trim() ?? '';
  if (!sending && !code) {
    addNodeMessage(flow.ui.nodes, 'code', texts.required('code'));
    return { status: 400, failed: true };
  }
  if (!traits) return { status: 400, failed: true };
  const addresses = codeIdentifiers(schema ?? BUILT_IN_CODE_SCHEMA, traits)
    .filter((a) => a.via === 'email')
    .map((a) => a.value);
  if (addresses.length === 0) {
    flow.ui.messages = [texts.identifierMissing()];
    return { status: 400, failed: true };
  }
  if (sending) {
    await deliverCodes(deps, args, traits, addresses);
    return { status: 400, failed: false };
  }
  // The code belongs to the traits it was sent for: another address, or other traits, need a new code.
  if (canonical(traits) !== flow.data.code_traits) {
    flow.ui.messages = [texts.traitsMismatch()];
    return { status: 400, failed: true };
  }
  await countOrRefuseCodeAttempt(db, flow, settings.codeLogin.maxSubmissions, args.now);
  const verified = /^\d{6}$/.test(code) ? await db.tx((q) => redeemRegistrationCode(q, flow.nid, flow.id, code, args.now, addresses)) : null;
  if (!verified) {
    flow.ui.messages = [texts.registrationCodeInvalid()];
    return { status: 400, failed: true };
  }
  return { verified };
}

/** Mails a fresh code of the flow to each address (older ones stop working) and shows the code step. */
async function deliverCodes(deps: IdentityDeps, args: SubmitArgs, traits: Record<string, unknown>, addresses: string[]): Promise<void> {
  const { flow, db, tenant, settings } = args;
  const lifespanMs = settings.codeLogin.lifespanMs ?? deps.codeLifespanMs;
  await db.tx(async (q) => {
    const issued = await issueRegistrationCodes(q, { nid: tenant.nid, flowId: flow.id, addresses, lifespanMs, now: deps.ctx.clock.now() });
    for (const { address, code } of issued) {
      await sendTemplated(deps, q, tenant.nid, {
        to: address,
        template: 'registration_code',
        variant: 'valid',
        data: { RegistrationCode: code, Traits: traits, ExpiresInMinutes: Math.round(lifespanMs / 60_000), RequestURL: flow.request_url, TransientPayload: {} },
      });
    }
    await resetCodeAttempts(q, flow.nid, flow.id);
  });
  flow.state = 'sent_email';
  flow.data.attempts = 0;
  flow.data.code_traits = canonical(traits);
  flow.data.active = 'code';
  flow.ui.nodes = sentRegistrationCodeNodes(flow.ui.nodes);
  flow.ui.messages = [texts.registrationCodeSent()];
}
