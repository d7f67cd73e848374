import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Queryable } from '../db/types';
import { route } from '../kernel/route';
import { badRequest, flowNotFound, noActiveSession, OryError } from '../kernel/errors';
import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { queryValue, uiLink } from '../kernel/http';
import { identitySettings, returnUrlAfter } from '../kernel/identity-settings';
import { tenantOf, type Tenant } from '../kernel/tenant';
import { previewClaimsMapping, socialRedirectUri } from '../../shared/domain/social-providers';
import { traitIdentifiers } from '../../shared/domain/identity-schema-extension';
import { defaultSchema, tenantSchemas, traitsProblem } from '../identity-schema/tenant-schemas';
import { insertIdentity, isUniqueViolation, setAddressVerified, type Traits } from '../identity/store';
import { deleteOidcLink, findOidcLink, identityCredentialTypes, insertOidcLink, type FederatedMethod } from '../identity/oidc-credentials';
import { issueSession, sessionJson, setSessionCookie, type IssuedSession } from '../session/service';
import { publicIdentity } from '../identity/service';
import type { SessionRow } from '../session/token';
import { createFlow, flowJson, isExpired, loadFlow, markPassed, saveFlow, type FlowKind, type FlowRow } from './flows';
import type { Outcome, SubmitArgs } from './flow-routes';
import { currentSession } from './flow-routes';
import { input, loginNodes, type UiNode } from './nodes';
import { checkSubmittedTraits, schemaRegistrationNodes, submittedTraits } from './schema-nodes';
import { linkingLabel, providerLabel, relyingParty, socialProvider, socialProviders, type SocialProvider } from './oidc-providers';
import { texts } from './texts';
import { samlProviders } from './saml-providers';
import { encodeStateCookie, readStateCookie } from './state-cookie';

/*
 * Social sign-in (Kratos' `oidc` method): provider buttons in the login, registration and settings flows, the
 * redirect to the provider with state, nonce and PKCE (openid-client), and the callback that registers, signs
 * in or links. Kratos' behaviour and texts (selfservice/strategy/oidc) are followed; what a redirect needs to
 * come back to (state, nonce, PKCE verifier) is kept on the flow, and the browser is bound to it by a cookie.
 */

/** Kratos' continuity cookie of the OpenID Connect flow. */
export const OIDC_CONTINUITY_COOKIE = 'ory_kratos_oidc_auth_code_session';

interface OidcState {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  /** Traits submitted with the provider button (a registration completing what the claims lacked). */
  traits?: Record<string, unknown>;
  /** Settings: the provider being linked. */
  link?: boolean;
}

/** Claims of a registration that needs more traits than the provider gave, kept on its registration flow. */
interface PendingRegistration {
  provider: string;
  subject: string;
  claims: Record<string, unknown>;
}

const submitButton = (name: string, value: string, label: ReturnType<typeof texts.signIn>): UiNode =>
  input('oidc', name, 'submit', { value, label });

/**
 * The provider (social or SAML) of the organization an identifier's email domain belongs to (Ory's identifier-first sign-in
 * sends such a user to the organization's own provider), if the organization has one. The organizations'
 * table is read by name, as the quota counts do, so that sign-in does not depend on the control plane's code.
 */
export async function organizationProvider(q: Queryable, nid: string, identifier: string | undefined): Promise<{ method: 'oidc' | 'saml'; id: string } | null> {
  const at = identifier?.lastIndexOf('@') ?? -1;
  if (!identifier || at < 1) return null;
  const domain = identifier.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  if (!domain) return null;
  const answer = (await q.orm.execute(sql`SELECT id FROM organizations WHERE project_id = ${nid}::uuid AND domains @> ${JSON.stringify([domain])}::jsonb LIMIT 1`)) as unknown as {
    rows: { id: string }[];
  };
  const organization = answer.rows[0]?.id;
  if (!organization) return null;
  const social = (await socialProviders(q, nid)).find((p) => p.organization_id === organization);
  if (social) return { method: 'oidc', id: social.id };
  const saml = (await samlProviders(q, nid)).find((p) => p.organization_id === organization);
  return saml ? { method: 'saml', id: saml.id } : null;
}

/** The provider's organization if it is still one of the tenant's (Kratos stamps it on identities the provider registers). */
async function providerOrganization(q: Queryable, nid: string, provider: SocialProvider): Promise<string | null> {
  const id = provider.organization_id?.toLowerCase();
  if (!id || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return null;
  const answer = (await q.orm.execute(sql`SELECT id FROM organizations WHERE id = ${id}::uuid AND project_id = ${nid}::uuid`)) as unknown as { rows: { id: string }[] };
  return answer.rows[0]?.id ?? null;
}

/** Provider buttons of a login or registration flow (providers of an organization are offered through it, not here). */
export async function oidcFlowNodes(q: Queryable, nid: string, kind: 'login' | 'registration'): Promise<UiNode[]> {
  const providers = (await socialProviders(q, nid)).filter((p) => !p.organization_id);
  return providers.map((p) => submitButton('provider', p.id, kind === 'login' ? texts.signInWith(providerLabel(p), p.id) : texts.signUpWith(providerLabel(p), p.id)));
}

/** Settings: `link` for each provider the identity has not linked; `unlink` for linked ones unless it is the identity's last credential. */
export async function oidcSettingsNodes(q: Queryable, nid: string, identityId: string | null): Promise<UiNode[]> {
  if (!identityId) return [];
  const providers = await socialProviders(q, nid);
  if (providers.length === 0) return [];
  const { linked, count } = await identityCredentialTypes(q, nid, identityId);
  return providers.flatMap((p) => {
    // Kratos offers no organization's provider to link in the settings flow: it is reached through the organization.
    if (!linked.includes(p.id)) return p.organization_id ? [] : [submitButton('link', p.id, texts.linkProvider(providerLabel(p)))];
    return count > 1 ? [submitButton('unlink', p.id, texts.unlinkProvider(providerLabel(p)))] : [];
  });
}

const stringField = (body: Record<string, unknown>, key: string) => (typeof body[key] === 'string' && body[key] !== '' ? (body[key] as string) : undefined);

/** The provider a login or registration submit asks for: `method: oidc` (or no method) with `provider`. */
export function requestedProvider(body: Record<string, unknown>): string | undefined {
  const provider = stringField(body, 'provider');
  if (!provider) return undefined;
  return body.method === undefined || body.method === 'oidc' ? provider : undefined;
}

/** The settings action a submit asks for: `link` or `unlink` of a provider. */
export function requestedLink(body: Record<string, unknown>): { action: 'link' | 'unlink'; provider: string } | undefined {
  if (body.method !== undefined && body.method !== 'oidc') return undefined;
  const link = stringField(body, 'link');
  if (link) return { action: 'link', provider: link };
  const unlink = stringField(body, 'unlink');
  if (unlink) return { action: 'unlink', provider: unlink };
  return body.method === 'oidc' ? { action: 'link', provider: '' } : undefined;
}

interface Continuity {
  flow: string;
  kind: FlowKind;
  state: string;
}

const readContinuity = (req: FastifyRequest): Continuity | null => readStateCookie<Continuity>(req, OIDC_CONTINUITY_COOKIE, ['flow', 'state', 'kind']);

/** The `upstream_parameters` Kratos passes on to the provider's authorization endpoint. */
const UPSTREAM_PARAMETERS = ['hd', 'prompt', 'auth_type', 'acr_values'];

/**
 * Sends the browser to the provider: a fresh state, nonce and PKCE verifier on the flow, the continuity cookie
 * binding this browser to it, and the authorization URL as the submit's navigation.
 */
export async function startOidc(deps: IdentityDeps, args: SubmitArgs, providerId: string, extra: Partial<OidcState> = {}): Promise<Outcome> {
  const { flow, db, tenant, reply, req } = args;
  if (flow.type === 'api') {
    flow.ui.messages = [texts.noStrategy(flow.kind as 'login' | 'registration' | 'settings')];
    return { type: 'flow', status: 400 };
  }
  const provider = await socialProvider(db, tenant.nid, providerId);
  const { config, oidc } = await relyingParty(provider);
  // Kratos' `pkce: auto` uses PKCE only when the provider's discovery document advertises S256; `force` always.
  const pkce =
    provider.pkce === 'force' || (provider.pkce !== 'never' && (config.serverMetadata().code_challenge_methods_supported ?? []).includes('S256'));
  const state: OidcState = {
    provider: provider.id,
    state: client.randomState(),
    nonce: client.randomNonce(),
    // No verifier: the callback then sends none either.
    verifier: pkce ? client.randomPKCECodeVerifier() : '',
    ...extra,
  };
  // Kratos forwards only these of the submitted `upstream_parameters`; `login_hint` no longer, since a caller's
  // value can steer the provider's choice of account or client.
  const upstream = Object.fromEntries(Object.entries(args.body.upstream_parameters ?? {}).filter(([k]) => UPSTREAM_PARAMETERS.includes(k)));
  const scope = provider.scope.length > 0 ? provider.scope : ['openid'];
  const url = client.buildAuthorizationUrl(config, {
    ...upstream,
    redirect_uri: socialRedirectUri(tenant.base, provider.id),
    scope: scope.join(' '),
    state: state.state,
    ...(oidc ? { nonce: state.nonce } : {}),
    ...(pkce ? { code_challenge: await client.calculatePKCECodeChallenge(state.verifier), code_challenge_method: 'S256' } : {}),
  });
  flow.data.oidc = state;
  await saveFlow(db, flow, deps.ctx.clock.now());
  const continuity: Continuity = { flow: flow.id, kind: flow.kind as FlowKind, state: state.state };
  reply.setCookie(OIDC_CONTINUITY_COOKIE, encodeStateCookie(continuity), {
    path: tenant.cookiePath,
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(deps, req),
    maxAge: Math.max(1, Math.floor((flow.expires_at.getTime() - args.now.getTime()) / 1000)),
  });
  return { type: 'location', to: url.href };
}

/**
 * Unlinks a provider in a settings flow. The identity's last credential stays: Kratos answers the flow (400) with
 * its validation message, checking that before whether the connection exists, as here.
 */
export async function unlinkOidc(args: SubmitArgs, providerId: string): Promise<boolean> {
  const { flow, db, tenant } = args;
  const identityId = flow.identity_id ?? '';
  const { linked, count } = await identityCredentialTypes(db, tenant.nid, identityId);
  if (count < 2) {
    flow.ui.messages = [texts.validation('can not unlink OpenID Connect connection because it is the last remaining first factor credential')];
    return false;
  }
  if (!linked.includes(providerId)) {
    flow.ui.messages = [texts.validation('can not unlink non-existing OpenID Connect connection')];
    return false;
  }
  await deleteOidcLink(db, tenant.nid, identityId, providerId);
  return true;
}

/** The claims the provider vouches for: the ID token's, else its user info. */
async function claimsOf(provider: SocialProvider, callbackUrl: URL, state: OidcState): Promise<{ subject: string; claims: Record<string, unknown> }> {
  const { config, userinfoUrl, oidc } = await relyingParty(provider);
  let tokens;
  try {
    tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: state.state,
      ...(state.verifier ? { pkceCodeVerifier: state.verifier } : {}),
      ...(oidc ? { expectedNonce: state.nonce, idTokenExpected: true } : {}),
    });
  } catch (err) {
    throw badRequest(`Unable to complete OpenID Connect flow because the code could not be exchanged: ${err instanceof Error ? err.message : String(err)}`);
  }
  let claims: Record<string, unknown> | undefined = tokens.claims() as Record<string, unknown> | undefined;
  if (!claims) {
    if (oidc) throw badRequest('Authentication failed because no id_token was returned. Please accept the "openid" permission and try again.');
    try {
      if (userinfoUrl) {
        const res = await fetch(userinfoUrl, { headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`OpenID Connect provider returned a ${res.status} status code but 200 is expected.`);
        claims = (await res.json()) as Record<string, unknown>;
      } else {
        claims = (await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck)) as Record<string, unknown>;
      }
    } catch (err) {
      throw badRequest(`Unable to fetch the user's profile from the OpenID Connect provider: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const subject = claims.sub ?? claims.id;
  if ((typeof subject !== 'string' && typeof subject !== 'number') || subject === '') {
    throw badRequest('The OpenID Connect provider did not return a subject (sub) claim.');
  }
  return { subject: String(subject), claims };
}

interface CallbackContext {
  deps: IdentityDeps;
  req: FastifyRequest;
  reply: FastifyReply;
  db: Db;
  tenant: Tenant;
  flow: FlowRow;
  provider: SocialProvider;
  now: Date;
}

/**
 * Where a federated sign-in ends: a session (for an identity registered now or before), or another step shown
 * on a flow of its own page (the traits the claims lacked, a login that links the provider to an account).
 */
export type Landing =
  | { type: 'session'; session: IssuedSession; identityId: string; registered: boolean; to: string }
  | { type: 'flow'; flow: FlowRow; to: string };

async function signIn(c: CallbackContext, identityId: string, registered = false): Promise<Landing> {
  const { deps, req, reply, db, tenant, flow } = c;
  const settings = await identitySettings(db, tenant.nid);
  const session = await db.tx(async (q) => {
    await markPassed(q, flow, deps.ctx.clock.now());
    return issueSession(q, req, tenant.nid, identityId, 'oidc', settings.sessionLifespanMs ?? deps.sessionLifespanMs, deps.ctx.clock);
  });
  deps.ctx.log.info({ nid: tenant.nid, identity_id: identityId, provider: c.provider.id }, 'identity signed in with a social provider');
  // Native apps get the session token in the answer; browsers the cookie.
  if (flow.type !== 'api') setSessionCookie(reply, tenant, session, isSecure(deps, req));
  // A sign-in that registered ends where sign-ups do, any other where sign-ins do (Kratos' post-registration and post-login hooks).
  const to = flow.return_to ?? returnUrlAfter(settings, registered ? 'registration' : 'login', 'oidc') ?? uiLink(tenant.uiUrl, '/');
  return { type: 'session', session, identityId, registered, to };
}

/** A registration flow to show what the claims lacked on: the flow itself, or a new one for a login flow. */
async function registrationFlowFor(c: CallbackContext): Promise<FlowRow> {
  if (c.flow.kind === 'registration') return c.flow;
  return createFlow(c.db, {
    nid: c.tenant.nid,
    kind: 'registration',
    type: c.flow.type === 'api' ? 'api' : 'browser',
    state: 'choose_method',
    csrfToken: c.flow.csrf_token,
    requestUrl: c.flow.request_url,
    returnTo: c.flow.return_to,
    ui: { nodes: [] },
    lifespanMs: c.flow.expires_at.getTime() - c.flow.issued_at.getTime(),
    now: c.now,
  });
}

/**
 * Registers the provider's subject with traits from its claims (Ory's default mapping, then what the person
 * typed when the claims lacked something). Traits the schema refuses put the form on a registration flow,
 * as Kratos does; an identifier taken by another identity turns into a login flow that offers linking.
 */
async function register(c: CallbackContext, subject: string, claims: Record<string, unknown>, submitted: Record<string, unknown> = {}): Promise<Landing> {
  const { db, tenant, provider } = c;
  // Kratos signs a new subject up from a login flow only while registration is enabled.
  if (c.flow.kind === 'login' && !(await identitySettings(db, tenant.nid)).registrationEnabled) {
    throw new OryError(400, { id: 'self_service_flow_disabled', message: 'registration flow disabled', reason: 'Registration is not allowed because it was disabled.' });
  }
  const schema = defaultSchema(await tenantSchemas(db, tenant.nid)).schema;
  const traits = { ...previewClaimsMapping(claims, schema), ...submitted };
  if (traitsProblem(schema, traits)) {
    const flow = await registrationFlowFor(c);
    const nodes = schemaRegistrationNodes(flow.csrf_token, schema, traits).filter((n) => n.group !== 'password' && (flow.type !== 'api' || (n.attributes as { name?: string }).name !== 'csrf_token'));
    checkSubmittedTraits(nodes, schema, traits);
    nodes.push(submitButton('provider', provider.id, texts.registrationContinue()));
    flow.ui = { nodes, messages: [] };
    flow.data.oidc_pending = { provider: provider.id, subject, claims } satisfies PendingRegistration;
    await saveFlow(db, flow, c.now);
    return { type: 'flow', flow, to: uiLink(tenant.uiUrl, '/registration', { flow: flow.id }) };
  }
  const identifiers = traitIdentifiers(schema, traits);
  let identityId: string;
  try {
    identityId = await db.tx(async (q) => {
      const id = await insertIdentity(q, tenant.nid, {
        schemaId: 'default',
        traits: traits as Traits,
        state: 'active',
        metadataPublic: null,
        metadataAdmin: null,
        identifiers: { ...identifiers, password: null },
        organizationId: await providerOrganization(q, tenant.nid, provider),
      });
      await insertOidcLink(q, tenant.nid, id, provider.id, subject, c.now);
      // The provider vouches for the address it calls verified (Ory's default mapper does the same).
      if (claims.email_verified === true && typeof claims.email === 'string') {
        const email = claims.email.trim().toLowerCase();
        if (identifiers.verifiable.some((a) => a.via === 'email' && a.value === email)) await setAddressVerified(q, tenant.nid, id, email, true);
      }
      return id;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return duplicateToLogin(c, identifiers.password ?? identifiers.verifiable[0]?.value ?? '', subject);
  }
  c.deps.ctx.log.info({ nid: tenant.nid, identity_id: identityId, provider: provider.id }, 'identity registered with a social provider');
  return signIn(c, identityId, true);
}

/**
 * The claims' identifier belongs to another identity: a new login flow says so (Kratos' account-linking
 * message) with the identifier filled in; signing in there links the provider to that identity.
 */
async function duplicateToLogin(c: CallbackContext, identifier: string, subject: string): Promise<Landing> {
  return accountLinkingFlow(c.db, c.tenant, c.flow, { method: 'oidc', id: c.provider.id, label: linkingLabel(c.provider) }, identifier, subject, c.now);
}

/**
 * A login flow that offers to link a federated subject (social or SAML) to the account its identifier belongs
 * to: Kratos' message 1010016 with the identifier filled in, of the type (browser or native) of the flow it
 * comes from; its `to` is where to send the browser.
 */
export async function accountLinkingFlow(
  db: Db,
  tenant: Tenant,
  flow: FlowRow,
  provider: { method: FederatedMethod; id: string; label: string },
  identifier: string,
  subject: string,
  now: Date,
): Promise<Landing & { type: 'flow' }> {
  const native = flow.type === 'api';
  const offered = (await oidcFlowNodes(db, tenant.nid, 'login')).filter((n) => provider.method !== 'oidc' || (n.attributes as { value?: unknown }).value !== provider.id);
  // Kratos' account-linking form: the identifier is known (hidden), and each way in says it also links.
  const nodes = [...loginNodes(flow.csrf_token, identifier), ...offered]
    .filter((n) => !native || (n.attributes as { name?: string }).name !== 'csrf_token')
    .map((n): UiNode => {
      const attributes = n.attributes as { name?: string; type?: string };
      const label = n.meta.label as { id?: number; context?: { provider?: string } } | undefined;
      if (attributes.name === 'identifier') return { ...n, attributes: { ...n.attributes, type: 'hidden' } as UiNode['attributes'] };
      if (label?.id === 1010001) return { ...n, meta: { ...n.meta, label: texts.loginAndLink() } };
      if (label?.id === 1010002) return { ...n, meta: { ...n.meta, label: texts.loginWithAndLink(label.context?.provider ?? '') } };
      return n;
    });
  const login = await createFlow(db, {
    nid: tenant.nid,
    kind: 'login',
    type: native ? 'api' : 'browser',
    state: 'choose_method',
    csrfToken: flow.csrf_token,
    requestUrl: flow.request_url,
    returnTo: flow.return_to,
    ui: { nodes, messages: [texts.loginLink(identifier, provider.label, uiLink(tenant.uiUrl, '/login'))] },
    data: { refresh: false, oidc_link: { provider: provider.id, subject, method: provider.method } },
    lifespanMs: flow.expires_at.getTime() - flow.issued_at.getTime(),
    now,
  });
  // `no_org_ui`: Kratos tells the UI not to offer the organization sign-in on this page.
  return { type: 'flow', flow: login, to: uiLink(tenant.uiUrl, '/login', { flow: login.id, no_org_ui: 'true' }) };
}

/** After a password sign-in on a login flow that offered linking: the provider joins the identity. */
export async function linkAfterLogin(q: Queryable, flow: FlowRow, identityId: string, now: Date): Promise<void> {
  const pending = flow.data.oidc_link as { provider?: string; subject?: string; method?: FederatedMethod } | undefined;
  if (!pending?.provider || !pending.subject) return;
  const method = pending.method === 'saml' ? 'saml' : 'oidc';
  if (await findOidcLink(q, flow.nid, pending.provider, pending.subject, method)) return;
  await insertOidcLink(q, flow.nid, identityId, pending.provider, pending.subject, now, method);
}

/** A registration submit that completes the traits of a pending social registration: register with them. */
export async function completePendingRegistration(deps: IdentityDeps, args: SubmitArgs, providerId: string): Promise<Outcome | null> {
  const pending = args.flow.data.oidc_pending as PendingRegistration | undefined;
  if (!pending || pending.provider !== providerId) return null;
  const provider = await socialProvider(args.db, args.tenant.nid, providerId);
  const c: CallbackContext = { deps, req: args.req, reply: args.reply, db: args.db, tenant: args.tenant, flow: args.flow, provider, now: args.now };
  const schema = defaultSchema(await tenantSchemas(args.db, args.tenant.nid)).schema;
  return landingOutcome(args, await register(c, pending.subject, pending.claims, submittedTraits(schema, args.body.traits as Record<string, unknown> | undefined)));
}

/** A landing as the answer to a flow's submit: the session (a token for native apps), or the flow of the next step. */
async function landingOutcome(args: SubmitArgs, landing: Landing): Promise<Outcome> {
  const { flow, db, tenant, base } = args;
  if (landing.type === 'flow') {
    if (landing.flow.id === flow.id) return { type: 'flow', status: 400, redirect: landing.to };
    return { type: 'json', status: 400, redirect: landing.to, body: { ...(await flowJson(db, landing.flow, base)) } };
  }
  const session = await sessionJson(db, tenant.nid, landing.session.id, base);
  const identity = landing.registered ? { identity: await publicIdentity(db, tenant.nid, landing.identityId, base) } : {};
  if (flow.type === 'api') {
    const token = landing.session.token;
    return {
      type: 'json',
      redirect: '',
      body: { session_token: token, session, ...identity, ...(landing.registered ? { continue_with: [{ action: 'set_ory_session_token', ory_session_token: token }] } : {}) },
    };
  }
  return { type: 'json', redirect: landing.to, body: { session, ...identity, continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: landing.to }] } };
}

/** Provider kinds whose ID tokens a native app may submit (Kratos: Apple and Google), and when a token may lack a nonce. */
const ID_TOKEN_KINDS: Record<string, (claims: JWTPayload) => boolean> = {
  // Not every Google SDK sets a nonce: a token without one is accepted.
  google: () => true,
  // Apple says `nonce_supported: true` when the device sets one; only then is it required.
  apple: (claims) => claims.nonce_supported !== true,
};

/**
 * The claims of an ID token a native app got from the provider's own SDK (Kratos' `id_token` and
 * `id_token_nonce`): signed (RS256) by a key of the provider's JWKS, issued by the provider, for this client
 * (or one of `additional_id_token_audiences`), unexpired, and carrying the nonce the app says it used.
 */
export async function verifyIdToken(provider: SocialProvider, idToken: string, nonce: string | undefined): Promise<{ subject: string; claims: Record<string, unknown> }> {
  const canSkipNonce = ID_TOKEN_KINDS[provider.provider];
  if (!canSkipNonce) throw new OryError(502, { reason: `The provider ${provider.provider} does not support id_token verification` });
  const { config } = await relyingParty(provider);
  const metadata = config.serverMetadata();
  if (!metadata.jwks_uri) throw new OryError(502, { reason: `Unable to verify the id_token: the provider ${provider.id} publishes no JSON Web Key Set (jwks_uri).` });
  let claims: JWTPayload;
  try {
    const keys = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: 10_000 });
    ({ payload: claims } = await jwtVerify(idToken, keys, {
      issuer: metadata.issuer,
      audience: [provider.client_id, ...provider.additional_id_token_audiences],
      algorithms: ['RS256'],
    }));
  } catch (err) {
    throw new OryError(403, { reason: 'Could not verify id_token', message: err instanceof Error ? err.message : String(err) });
  }
  if (typeof claims.sub !== 'string' || claims.sub === '' || typeof claims.iss !== 'string' || claims.iss === '') {
    throw new OryError(403, { reason: 'The id_token claims were invalid' });
  }
  const inToken = typeof claims.nonce === 'string' ? claims.nonce : '';
  if (inToken === '') {
    if (!canSkipNonce(claims)) throw new OryError(502, { reason: 'No nonce was included in the id_token but is required by the provider' });
  } else if (!nonce) {
    throw new OryError(502, { reason: 'No nonce was provided but is required by the provider' });
  } else if (nonce !== inToken) {
    throw new OryError(502, { reason: 'The supplied nonce does not match the nonce from the id_token' });
  }
  return { subject: claims.sub, claims: claims as Record<string, unknown> };
}

/**
 * Sign-in or sign-up with an ID token instead of a redirect (Kratos' `id_token` on the `oidc` method, for
 * native apps and browser flows alike): a subject that linked the provider signs in, a new one registers from
 * the token's claims and the submitted traits; what the claims lack, or an email of another account, is the
 * next flow's answer (400), as it is after a redirect.
 */
export async function submitIdToken(deps: IdentityDeps, args: SubmitArgs, providerId: string): Promise<Outcome> {
  const { flow, db, tenant, body } = args;
  const provider = await socialProvider(db, tenant.nid, providerId);
  const { subject, claims } = await verifyIdToken(provider, body.id_token ?? '', body.id_token_nonce);
  const c: CallbackContext = { deps, req: args.req, reply: args.reply, db, tenant, flow, provider, now: args.now };
  const linked = await findOidcLink(db, tenant.nid, provider.id, subject);
  if (linked) return landingOutcome(args, await signIn(c, linked.identity_id));
  const schema = defaultSchema(await tenantSchemas(db, tenant.nid)).schema;
  return landingOutcome(args, await register(c, subject, claims, submittedTraits(schema, body.traits as Record<string, unknown> | undefined)));
}

async function settingsLink(c: CallbackContext, session: SessionRow | null, subject: string): Promise<string> {
  const { db, tenant, flow, provider } = c;
  if (!session || session.identity_id !== flow.identity_id) throw noActiveSession();
  const taken = await findOidcLink(db, tenant.nid, provider.id, subject);
  flow.ui.messages = [];
  if (taken) {
    flow.ui.messages = [texts.duplicateCredentials()];
  } else {
    try {
      await insertOidcLink(db, tenant.nid, flow.identity_id ?? '', provider.id, subject, c.now);
      flow.state = 'success';
      flow.ui.messages = [texts.settingsSaved()];
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      flow.ui.messages = [texts.duplicateCredentials()];
    }
  }
  flow.ui.nodes = [...flow.ui.nodes.filter((n) => n.group !== 'oidc'), ...(await oidcSettingsNodes(db, tenant.nid, flow.identity_id))];
  await saveFlow(db, flow, c.now);
  return uiLink(tenant.uiUrl, '/settings', { flow: flow.id });
}

const callbackQuery = z.looseObject({ code: queryValue, state: queryValue, error: queryValue, error_description: queryValue });

/** The provider's redirect back: `/self-service/methods/oidc/callback/{provider}`. */
export function registerOidcCallback(app: FastifyInstance, deps: IdentityDeps): void {
  const { ctx } = deps;
  const { db } = ctx;
  route(app, ctx, {
    method: 'GET',
    url: '/self-service/methods/oidc/callback/:provider',
    params: z.object({ provider: z.string().max(128) }),
    query: callbackQuery,
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, params, query }) => {
      const tenant = tenantOf(req);
      const now = ctx.clock.now();
      if (!query.state) {
        throw badRequest('Unable to complete OpenID Connect flow because the OpenID Provider did not return the state query parameter.');
      }
      const continuity = readContinuity(req);
      if (!continuity) {
        // Kratos' continuity manager: no cookie to resume from (ErrNotResumable).
        throw new OryError(400, {
          message: 'no resumable session found',
          reason: "The browser does not contain the necessary cookie to resume the session. This is a security violation and was blocked. Please clear your browser's cookies and cache and try again!",
        });
      }
      if (continuity.state !== query.state) {
        throw badRequest('Unable to complete OpenID Connect flow because the query state parameter does not match the state parameter from the session cookie.');
      }
      const flow = await loadFlow(db, tenant.nid, continuity.flow, continuity.kind);
      if (!flow) throw flowNotFound();
      const state = flow.data.oidc as OidcState | undefined;
      if (!state || state.state !== query.state) {
        throw badRequest('Unable to complete OpenID Connect flow because the query state parameter does not match the state parameter from the code.');
      }
      if (state.provider !== params.provider) {
        throw badRequest('Unable to complete OpenID Connect flow: provider mismatch between internal state and URL.');
      }
      // The state is spent: a replayed callback finds none.
      reply.clearCookie(OIDC_CONTINUITY_COOKIE, { path: tenant.cookiePath });
      delete flow.data.oidc;
      await saveFlow(db, flow, now);
      if (isExpired(flow, now)) {
        throw new OryError(410, {
          id: 'self_service_flow_expired',
          reason: `The ${flow.kind} flow has expired. Redirect the user to the ${flow.kind} flow init endpoint to initialize a new ${flow.kind} flow.`,
          message: 'self-service flow expired',
        });
      }
      let to: string;
      try {
        if (query.error) {
          throw badRequest(
            `Unable to complete OpenID Connect flow because the OpenID Provider returned error "${query.error}": ${query.error_description ?? ''}`,
          );
        }
        if (!query.code) throw badRequest('Unable to complete OpenID Connect flow because the OpenID Provider did not return the code query parameter.');
        const provider = await socialProvider(db, tenant.nid, params.provider);
        const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
        const { subject, claims } = await claimsOf(provider, new URL(`${socialRedirectUri(tenant.base, provider.id)}${search}`), state);
        const c: CallbackContext = { deps, req, reply, db, tenant, flow, provider, now };
        if (flow.kind === 'settings') {
          to = await settingsLink(c, await currentSession(db, tenant, req, now), subject);
        } else {
          const linked = await findOidcLink(db, tenant.nid, provider.id, subject);
          to = (linked ? await signIn(c, linked.identity_id) : await register(c, subject, claims, state.traits ?? {})).to;
        }
      } catch (err) {
        // Kratos' flow error handlers: a refusal (400) once the flow is known is the flow's message (4000001 with
        // the reason), and the browser goes back to the flow's page; other failures reach the error page.
        if (!(err instanceof OryError) || err.status !== 400) throw err;
        flow.ui.messages = [texts.validation(err.init.reason ?? err.message)];
        await saveFlow(db, flow, now);
        to = uiLink(tenant.uiUrl, `/${flow.kind}`, { flow: flow.id });
      }
      return reply.code(303).header('location', to).send();
    },
  });
}
