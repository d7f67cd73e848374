import type { Db, Queryable } from '../db/types';
import type { IdentitySettings } from '../kernel/identity-settings';
import type { IdentityDeps } from '../kernel/identity-deps';
import { findByVerifiableAddress, findIdentity, findPasswordCredential, markAddressVerified, normalizeEmail } from '../identity/store';
import { codeIdentifiers } from '../../shared/domain/identity-schema-extension';
import { IDENTITY_SCHEMA } from '../identity-schema/console-schema';
import { sendTemplated } from '../courier/templates';
import { countOrRefuseCodeAttempt, issueCode, redeemCode, resetCodeAttempts } from './codes';
import { ownIdentitySchema } from './schema-nodes';
import { addNodeMessage, csrfNode, input, submit, type UiNode } from './nodes';
import { texts } from './texts';
import type { SubmitArgs } from './flow-routes';

/**
 * Passwordless sign-in with a one-time code, as Kratos' `code` strategy with `passwordless_enabled`: the
 * identifier gets a 6-digit code (`login_code` template, valid variant) through the project's courier; the
 * flow moves to `sent_email` and signs the identity in once with that code. A code works once, ends with its
 * lifespan, and a flow takes `max_submissions` code submissions at most (every submission counts, right or
 * wrong), after which it refuses every code until a new one is sent.
 */

/** The "Send sign in code" button the first step of a login flow offers beside the identifier. */
export const codeLoginNodes = (): UiNode[] => [submit('code', 'code', texts.sendSignInCode())];

/** The nodes once a code was sent: the identifier kept (hidden), the code, continue, and resend. */
export function sentCodeNodes(csrf: string, identifier: string): UiNode[] {
  const code = input('code', 'code', 'text', { required: true, autocomplete: 'one-time-code', label: texts.labelLoginCode() });
  return [
    csrfNode(csrf),
    input('default', 'identifier', 'hidden', { value: identifier }),
    input('code', 'method', 'hidden', { value: 'code' }),
    code,
    submit('code', 'code', texts.labelContinue()),
    input('code', 'resend', 'submit', { value: 'code', label: texts.labelResendCode() }),
  ];
}

/** Ory lower-cases an identifier that is an email (phones type the first letter upper-case). */
const normalized = (raw: string) => (raw.includes('@') ? normalizeEmail(raw) : raw.trim());

/**
 * The active identity a code for `identifier` signs in, and the address it goes to: a trait its schema marks as
 * a code identifier (the email of the built-in schema, as Ory Network's email preset), or with the fallback
 * on, the identifier itself when it is a verifiable address of the identity. Null when no identity may.
 */
export async function codeIdentity(db: Db, nid: string, identifier: string, settings: IdentitySettings): Promise<CodeAddress | null> {
  const id =
    (await findByVerifiableAddress(db, nid, identifier, identifier.includes('@') ? 'email' : 'sms')) ??
    (await findPasswordCredential(db, nid, identifier))?.identity_id;
  if (!id) return null;
  const identity = await findIdentity(db, nid, id);
  if (!identity || identity.row.state !== 'active') return null;
  const schema = (await ownIdentitySchema(db, nid, id)) ?? BUILT_IN_CODE_SCHEMA;
  // A phone trait marked `via: sms` gets its code by text message, as Kratos' code strategy sends it.
  const own = codeIdentifiers(schema, identity.row.traits as Record<string, unknown>).find((a) => a.value === identifier);
  if (own) return { identityId: id, address: own.value, via: own.via };
  const verifiable = identity.verifiable.find((a) => a.value === identifier);
  if (settings.codeLogin.fallback && verifiable) return { identityId: id, address: identifier, via: verifiable.via === 'sms' ? 'sms' : 'email' };
  return null;
}

/** Where a sign-in code goes: the identity, its address, and the channel (`email`, or `sms` for a phone). */
export interface CodeAddress {
  identityId: string;
  address: string;
  via: 'email' | 'sms';
}

/**
 * The addresses a code may go to as the identity's second factor (`mfa_enabled`): its code identifiers, or with
 * the fallback on, its verifiable email addresses.
 */
export async function codeAddresses(db: Queryable, nid: string, identityId: string, settings: IdentitySettings): Promise<string[]> {
  const identity = await findIdentity(db, nid, identityId);
  if (!identity) return [];
  const schema = (await ownIdentitySchema(db, nid, identityId)) ?? BUILT_IN_CODE_SCHEMA;
  const own = codeIdentifiers(schema, identity.row.traits as Record<string, unknown>).filter((a) => a.via === 'email').map((a) => a.value);
  const fallback = settings.codeLogin.fallback ? identity.verifiable.filter((a) => a.via === 'email').map((a) => a.value) : [];
  return [...new Set([...own, ...fallback])].sort();
}

/** The second-factor step of an `aal=aal2` login: a "Send code to …" button per address. */
export const codeSecondFactorNodes = (addresses: string[]): UiNode[] =>
  addresses.map((address) => input('code', 'address', 'submit', { value: address, label: texts.sendCodeTo('email', address) }));

/**
 * The second factor by code (`mfa_enabled`): an `address` of the signed-in identity gets a code; the code then
 * proves the session's second factor. The caller raises the session to aal2 when this answers `proven`.
 */
export async function submitCodeSecondFactor(deps: IdentityDeps, args: SubmitArgs, identityId: string): Promise<{ proven: true } | { status: 400; failed: boolean }> {
  const { flow, body, db, tenant, settings } = args;
  if (flow.state === 'passed_challenge') {
    flow.ui.messages = [texts.noStrategy('login')];
    return { status: 400, failed: true };
  }
  const resend = typeof body.resend === 'string' && body.resend.toLowerCase() === 'code';
  const address = normalized(body.address ?? body.identifier ?? '');
  const addresses = await codeAddresses(db, tenant.nid, identityId, settings);
  if (flow.state !== 'sent_email' || resend) {
    if (!addresses.includes(address)) {
      flow.ui.messages = [texts.noCodeUser()];
      return { status: 400, failed: true };
    }
    await deliverCode(deps, args, identityId, address);
    flow.ui.messages = [texts.loginCodeSentToSignedIn()];
    // Ory's published API has no flow answer of 200 for this submission: the flow comes with 400, as for sign-in codes.
    return { status: 400, failed: false };
  }
  flow.ui.nodes = sentCodeNodes(flow.csrf_token, address);
  flow.ui.messages = [];
  const code = body.code?.trim() ?? '';
  if (!code) {
    addNodeMessage(flow.ui.nodes, 'code', texts.required('code'));
    return { status: 400, failed: true };
  }
  await countOrRefuseCodeAttempt(db, flow, settings.codeLogin.maxSubmissions, args.now);
  const redeemed = /^\d{6}$/.test(code) ? await db.tx((q) => redeemCode(q, flow.nid, flow.id, 'login', code, args.now, identityId)) : null;
  if (!redeemed) {
    flow.ui.messages = [texts.loginCodeInvalid()];
    return { status: 400, failed: true };
  }
  return { proven: true };
}

/** The built-in schema's email signs in (and up) with a code as well as a password. */
export const BUILT_IN_CODE_SCHEMA = {
  ...IDENTITY_SCHEMA,
  properties: {
    traits: {
      ...IDENTITY_SCHEMA.properties.traits,
      properties: {
        ...IDENTITY_SCHEMA.properties.traits.properties,
        email: {
          ...IDENTITY_SCHEMA.properties.traits.properties.email,
          'ory.sh/kratos': { ...IDENTITY_SCHEMA.properties.traits.properties.email['ory.sh/kratos'], credentials: { password: { identifier: true }, code: { identifier: true, via: 'email' } } },
        },
      },
    },
  },
};

/** Signed in as an identity, or the flow to show again (`failed`: a refused identifier or code, not a code sent). */
export type CodeLoginOutcome = { signedIn: string } | { status: 400; failed: boolean };

/** The submission of a login flow with `method=code` (or `resend=code`): sends a code, or redeems one. */
export async function submitCodeLogin(deps: IdentityDeps, args: SubmitArgs): Promise<CodeLoginOutcome> {
  const { flow, body, db, tenant, settings } = args;
  if (flow.state === 'passed_challenge') {
    flow.ui.messages = [texts.noStrategy('login')];
    return { status: 400, failed: true };
  }
  const resend = typeof body.resend === 'string' && body.resend.toLowerCase() === 'code';
  const identifier = normalized(body.identifier ?? '');
  if (flow.state !== 'sent_email' || resend) return sendCode(deps, args, identifier);

  flow.ui.nodes = sentCodeNodes(flow.csrf_token, identifier);
  flow.ui.messages = [];
  const code = body.code?.trim() ?? '';
  if (!code) {
    addNodeMessage(flow.ui.nodes, 'code', texts.required('code'));
    return { status: 400, failed: true };
  }
  await countOrRefuseCodeAttempt(db, flow, settings.codeLogin.maxSubmissions, args.now);
  const found = await codeIdentity(db, tenant.nid, identifier, settings);
  const redeemed = found && /^\d{6}$/.test(code) ? await db.tx((q) => redeemCode(q, flow.nid, flow.id, 'login', code, args.now, found.identityId)) : null;
  if (!redeemed) {
    flow.ui.messages = [texts.loginCodeInvalid()];
    return { status: 400, failed: true };
  }
  // A code that reached the address proves it, as a verification would.
  await markAddressVerified(db, tenant.nid, redeemed.identityId, redeemed.address);
  return { signedIn: redeemed.identityId };
}

async function sendCode(deps: IdentityDeps, args: SubmitArgs, identifier: string): Promise<CodeLoginOutcome> {
  const { flow, db, tenant, settings } = args;
  if (!identifier) {
    addNodeMessage(flow.ui.nodes, 'identifier', texts.required('identifier'));
    return { status: 400, failed: true };
  }
  const found = await codeIdentity(db, tenant.nid, identifier, settings);
  if (!found) {
    flow.ui.messages = [texts.noCodeUser()];
    return { status: 400, failed: true };
  }
  await deliverCode(deps, args, found.identityId, found.address, identifier, found.via);
  flow.ui.messages = [texts.loginCodeSent()];
  // Kratos answers the code's dispatch to an API client with the flow and 400: the sign-in is not done yet.
  return { status: 400, failed: false };
}

/** Sends a fresh code of the flow to `address` (older ones stop working) and shows the code step. */
async function deliverCode(deps: IdentityDeps, args: SubmitArgs, identityId: string, address: string, shown = address, via: 'email' | 'sms' = 'email'): Promise<void> {
  const { flow, db, tenant, settings } = args;
  const lifespanMs = settings.codeLogin.lifespanMs ?? deps.codeLifespanMs;
  await db.tx(async (q) => {
    const code = await issueCode(q, { nid: tenant.nid, flowId: flow.id, kind: 'login', identityId, address, lifespanMs, now: deps.ctx.clock.now() });
    const identity = await findIdentity(q, tenant.nid, identityId);
    await sendTemplated(deps, q, tenant.nid, {
      to: address,
      template: 'login_code',
      variant: 'valid',
      data: {
        LoginCode: code,
        Identity: { id: identityId, traits: identity?.row.traits ?? {} },
        ExpiresInMinutes: Math.round(lifespanMs / 60_000),
        RequestURL: flow.request_url,
        TransientPayload: {},
      },
      type: via,
    });
    await resetCodeAttempts(q, flow.nid, flow.id);
  });
  flow.state = 'sent_email';
  flow.data.attempts = 0;
  flow.ui.nodes = sentCodeNodes(flow.csrf_token, shown);
}
