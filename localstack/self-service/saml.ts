import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { z } from 'zod';
import { route } from '../kernel/route';
import { badRequest, flowNotFound, OryError } from '../kernel/errors';
import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { uiLink } from '../kernel/http';
import { identitySettings, returnUrlAfter } from '../kernel/identity-settings';
import { tenantOf, type Tenant } from '../kernel/tenant';
import type { Db } from '../db/types';
import type { JsonObject } from '../kernel/tenant-config';
import { defaultClaimsMapping } from '../../shared/domain/social-providers';
import { samlAcsUrl, samlClaims, samlMetadataUrl, samlSloUrl } from '../../shared/domain/saml-providers';
import { MetadataError, parseIdpMetadata } from '../../shared/saml-metadata';
import { traitIdentifiers } from '../../shared/domain/identity-schema-extension';
import { defaultSchema, tenantSchemas, traitsProblem } from '../identity-schema/tenant-schemas';
import { insertIdentity, isUniqueViolation, setAddressVerified, type Traits } from '../identity/store';
import { deleteOidcLink, findOidcLink, identityCredentialTypes, insertOidcLink } from '../identity/oidc-credentials';
import { issueSession, setSessionCookie } from '../session/service';
import { samlSessions } from '../identity/schema';
import { isExpired, loadFlow, markPassed, saveFlow, type FlowKind, type FlowRow } from './flows';
import { currentSession } from './flow-routes';
import type { Outcome, SubmitArgs } from './flow-routes';
import { input, type UiNode } from './nodes';
import { accountLinkingFlow, oidcSettingsNodes } from './oidc';
import { samlProvider, samlProviderLabel, samlProviders, type SamlProvider } from './saml-providers';
import { samlSpKey, type SamlSpKey } from './saml-keys';
import { texts } from './texts';
import { readStateCookie, setPostBackCookie } from './state-cookie';

/*
 * SAML sign-in (Kratos' `saml` method), served through node-saml: a provider button per SAML provider in the
 * login and registration flows (group `saml`), the AuthnRequest redirect, the service provider's metadata and
 * the assertion consumer service, which accepts only a response whose assertion is signed by a certificate of
 * the identity provider's metadata, answers the request this browser's flow sent, is within its conditions and
 * is addressed to this service provider. The subject (the assertion's NameID) registers or signs in.
 */

/** Continuity cookie binding the browser to the flow that sent the AuthnRequest. */
export const SAML_CONTINUITY_COOKIE = 'ory_kratos_saml_auth_code_session';

interface SamlState {
  provider: string;
  requestId: string;
  issuedAt: string;
}

interface Continuity {
  flow: string;
  kind: FlowKind;
  requestId: string;
}

const button = (id: string, label: ReturnType<typeof texts.signIn>): UiNode => input('saml', 'provider', 'submit', { value: id, label });

/** Provider buttons of a login or registration flow (providers of an organization are reached through its domain instead). */
export async function samlFlowNodes(q: Parameters<typeof samlProviders>[0], nid: string, kind: 'login' | 'registration'): Promise<UiNode[]> {
  const providers = (await samlProviders(q, nid)).filter((p) => !p.organization_id);
  return providers.map((p) => button(p.id, kind === 'login' ? texts.signInWith(samlProviderLabel(p), p.id) : texts.signUpWith(samlProviderLabel(p), p.id)));
}

/** Settings: `link` for each SAML provider the identity has not linked; `unlink` for linked ones unless it is the identity's last credential. */
export async function samlSettingsNodes(q: Parameters<typeof samlProviders>[0], nid: string, identityId: string | null): Promise<UiNode[]> {
  if (!identityId) return [];
  // An organization's provider is its members' way in, not one to link from settings (as in Kratos).
  const providers = (await samlProviders(q, nid)).filter((p) => !p.organization_id);
  if (providers.length === 0) return [];
  const { samlLinked, count } = await identityCredentialTypes(q, nid, identityId);
  return providers.flatMap((p) => {
    if (!samlLinked.includes(p.id)) return [input('saml', 'link', 'submit', { value: p.id, label: texts.linkProvider(samlProviderLabel(p)) })];
    return count > 1 ? [input('saml', 'unlink', 'submit', { value: p.id, label: texts.unlinkProvider(samlProviderLabel(p)) })] : [];
  });
}

/**
 * The SAML settings action a submit asks for: `method: saml` with `link` or `unlink`, or either without a method
 * when it names a SAML provider of the tenant.
 */
export async function requestedSamlLink(
  q: Parameters<typeof samlProviders>[0],
  nid: string,
  body: Record<string, unknown>,
): Promise<{ action: 'link' | 'unlink'; provider: string } | undefined> {
  if (body.method !== undefined && body.method !== 'saml') return undefined;
  const pick = (key: string) => (typeof body[key] === 'string' && body[key] !== '' ? (body[key] as string) : undefined);
  const link = pick('link');
  const unlink = pick('unlink');
  const asked = link ? { action: 'link' as const, provider: link } : unlink ? { action: 'unlink' as const, provider: unlink } : undefined;
  if (body.method === 'saml') return asked ?? { action: 'link', provider: '' };
  if (!asked) return undefined;
  return (await samlProviders(q, nid)).some((p) => p.id === asked.provider) ? asked : undefined;
}

/** Unlinks a SAML provider in a settings flow; the identity's last credential stays (Kratos refuses that). */
export async function unlinkSaml(args: SubmitArgs, providerId: string): Promise<boolean> {
  const { flow, db, tenant } = args;
  const identityId = flow.identity_id ?? '';
  const { samlLinked, count } = await identityCredentialTypes(db, tenant.nid, identityId);
  if (!samlLinked.includes(providerId)) throw badRequest('Unable to unlink SAML connection because it does not exist.');
  if (count < 2) throw badRequest('Unable to unlink the last remaining SAML connection. Add another credential first.');
  await deleteOidcLink(db, tenant.nid, identityId, providerId, 'saml');
  return true;
}

/** The SAML provider a login or registration submit asks for: `method: saml` with `provider`, or a bare `provider` that names one. */
export async function requestedSamlProvider(q: Parameters<typeof samlProviders>[0], nid: string, body: Record<string, unknown>): Promise<string | undefined> {
  const provider = typeof body.provider === 'string' && body.provider !== '' ? body.provider : undefined;
  if (!provider) return undefined;
  if (body.method === 'saml') return provider;
  if (body.method !== undefined) return undefined;
  return (await samlProviders(q, nid)).some((p) => p.id === provider) ? provider : undefined;
}

/** The metadata of a provider as node-saml needs it; a provider whose metadata cannot be read is Kratos' 500-less refusal. */
export function idpOf(provider: SamlProvider) {
  try {
    return parseIdpMetadata(provider.raw_idp_metadata_xml);
  } catch (err) {
    if (err instanceof MetadataError) throw new OryError(500, { reason: `Unable to read the metadata of SAML Provider "${provider.id}": ${err.message}` });
    throw err;
  }
}

/**
 * The service provider of one provider of the tenant. The AuthnRequest's id is kept on the flow (not in
 * node-saml's process memory): `cache` is the flow's, so a response is accepted only in answer to it. The
 * tenant's key signs the requests (unless the provider says `sign_requests: false`) and decrypts encrypted
 * assertions, which must still carry the identity provider's signature inside.
 */
export function serviceProvider(tenant: Tenant, provider: SamlProvider, key: SamlSpKey, cache?: CacheProvider): SAML {
  const idp = idpOf(provider);
  const entityId = samlMetadataUrl(tenant.base, provider.id);
  return new SAML({
    callbackUrl: samlAcsUrl(tenant.base, provider.id),
    entryPoint: idp.ssoUrl,
    ...(idp.sloUrl ? { logoutUrl: idp.sloUrl } : {}),
    logoutCallbackUrl: samlSloUrl(tenant.base, provider.id),
    issuer: entityId,
    audience: entityId,
    idpCert: idp.certificates,
    idpIssuer: idp.entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: 60_000,
    validateInResponseTo: cache ? ValidateInResponseTo.always : ValidateInResponseTo.never,
    decryptionPvk: key.privateKey,
    ...(provider.sign_requests ? { privateKey: key.privateKey, signatureAlgorithm: 'sha256' as const } : {}),
    ...(cache ? { cacheProvider: cache } : {}),
  });
}

/** The service provider's metadata: the encryption certificate always, the signing one when requests are signed. */
export function spMetadata(tenant: Tenant, provider: SamlProvider, key: SamlSpKey): string {
  return serviceProvider(tenant, provider, key).generateServiceProviderMetadata(key.certificate, provider.sign_requests ? key.certificate : null);
}

/** Sends the browser to the identity provider with an AuthnRequest; the flow keeps its id, a cookie binds the browser. */
export async function startSaml(deps: IdentityDeps, args: SubmitArgs, providerId: string): Promise<Outcome> {
  const { flow, db, tenant, reply, req } = args;
  if (flow.type === 'api') {
    flow.ui.messages = [texts.noStrategy(flow.kind as 'login' | 'registration' | 'settings')];
    return { type: 'flow', status: 400 };
  }
  const provider = await samlProvider(db, tenant.nid, providerId);
  if (flow.kind === 'settings') {
    if (provider.organization_id) throw badRequest(`SAML Provider "${provider.id}" belongs to an organization and can not be linked in the settings flow.`);
    if ((await identityCredentialTypes(db, tenant.nid, flow.identity_id ?? '')).samlLinked.includes(provider.id)) {
      throw badRequest('Can not link unknown or already existing SAML connection.');
    }
  }
  const recorder = requestIdRecorder();
  const key = await samlSpKey(db, tenant.nid, deps.ctx.clock.now());
  const url = await serviceProvider(tenant, provider, key, recorder.cache).getAuthorizeUrlAsync(flow.id, undefined, {});
  const requestId = recorder.id();
  if (!requestId) throw new OryError(500, { reason: 'Unable to create the SAML AuthnRequest.' });
  const state: SamlState = { provider: provider.id, requestId, issuedAt: new Date().toISOString() };
  flow.data.saml = state;
  await saveFlow(db, flow, deps.ctx.clock.now());
  const continuity: Continuity = { flow: flow.id, kind: flow.kind as FlowKind, requestId };
  setPostBackCookie(reply, SAML_CONTINUITY_COOKIE, continuity, { path: tenant.cookiePath, secure: isSecure(deps, req), maxAge: Math.max(1, Math.floor((flow.expires_at.getTime() - args.now.getTime()) / 1000)) });
  return { type: 'location', to: url };
}

/**
 * A cache for node-saml that only notes the id of the request it makes (`saveAsync`), so that the flow or the
 * logout cookie keeps it; node-saml's own checks against it are not used (the ACS and SLO check the kept id).
 */
export function requestIdRecorder(): { cache: CacheProvider; id: () => string } {
  let requestId = '';
  return {
    cache: {
      saveAsync: async (key, value) => {
        requestId = key;
        return { value, createdAt: Date.now() };
      },
      getAsync: async () => null,
      removeAsync: async () => null,
    },
    id: () => requestId,
  };
}

const readContinuity = (req: FastifyRequest): Continuity | null => readStateCookie<Continuity>(req, SAML_CONTINUITY_COOKIE, ['flow', 'requestId', 'kind']);

/** Top-level trait names of the schema, and whether its `name` trait is an object (first and last name). */
function traitShape(schema: JsonObject): { names: string[]; nameIsObject: boolean } {
  const traits = ((schema.properties as JsonObject | undefined)?.traits as JsonObject | undefined)?.properties as Record<string, JsonObject> | undefined;
  return { names: Object.keys(traits ?? {}), nameIsObject: traits?.name?.type === 'object' };
}

/** Attributes of node-saml's profile: its `attributes`, else the profile's own extra keys. */
function attributesOf(profile: Profile): Record<string, unknown> {
  const attrs = profile.attributes;
  return typeof attrs === 'object' && attrs !== null ? (attrs as Record<string, unknown>) : (profile as Record<string, unknown>);
}

const acsBody = z.looseObject({ SAMLResponse: z.string().min(1).max(512 * 1024), RelayState: z.string().max(256).optional() });

/** The service provider's metadata and the assertion consumer service of each SAML provider. */
export function registerSamlRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const { ctx } = deps;
  const { db } = ctx;

  route(app, ctx, {
    method: 'GET',
    url: '/self-service/methods/saml/metadata/:provider',
    params: z.object({ provider: z.string().max(128) }),
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, params }) => {
      const tenant = tenantOf(req);
      const provider = await samlProvider(db, tenant.nid, params.provider);
      const xml = spMetadata(tenant, provider, await samlSpKey(db, tenant.nid, ctx.clock.now()));
      return reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8').send(xml);
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/self-service/methods/saml/acs/:provider',
    params: z.object({ provider: z.string().max(128) }),
    body: acsBody,
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, params, body }) => {
      const tenant = tenantOf(req);
      const now = ctx.clock.now();
      const continuity = readContinuity(req);
      if (!continuity || (body.RelayState !== undefined && body.RelayState !== continuity.flow)) {
        throw badRequest('Unable to complete SAML flow because the SAML response does not belong to the flow started in this browser.');
      }
      const flow = await loadFlow(db, tenant.nid, continuity.flow, continuity.kind);
      if (!flow) throw flowNotFound();
      const state = flow.data.saml as SamlState | undefined;
      if (!state || state.requestId !== continuity.requestId) {
        throw badRequest('Unable to complete SAML flow because the SAML response does not belong to the flow started in this browser.');
      }
      if (state.provider !== params.provider) throw badRequest('Unable to complete SAML flow: provider mismatch between internal state and URL.');
      // The request is spent: a replayed response finds none.
      reply.clearCookie(SAML_CONTINUITY_COOKIE, { path: tenant.cookiePath });
      delete flow.data.saml;
      await saveFlow(db, flow, now);
      if (isExpired(flow, now)) {
        throw new OryError(410, {
          id: 'self_service_flow_expired',
          reason: `The ${flow.kind} flow has expired. Redirect the user to the ${flow.kind} flow init endpoint to initialize a new ${flow.kind} flow.`,
          message: 'self-service flow expired',
        });
      }
      const provider = await samlProvider(db, tenant.nid, params.provider);
      const cache: CacheProvider = {
        saveAsync: async () => null,
        getAsync: async (key) => (key === state.requestId ? state.issuedAt : null),
        removeAsync: async () => null,
      };
      const key = await samlSpKey(db, tenant.nid, now);
      let profile: Profile | null;
      try {
        ({ profile } = await serviceProvider(tenant, provider, key, cache).validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
      } catch (err) {
        ctx.log.info({ nid: tenant.nid, provider: provider.id, err: err instanceof Error ? err.message : String(err) }, 'SAML response refused');
        throw badRequest(`Unable to complete SAML flow because the SAML response is invalid: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!profile?.nameID) throw badRequest('Unable to complete SAML flow because the SAML assertion names no subject (NameID).');
      if (flow.kind === 'settings') {
        // The continuity cookie proves this browser sent the request from the identity's settings flow (a privileged
        // session submitted it); the identity provider's cross-site POST may come without the session cookie, but one
        // that comes with it must be that identity's.
        const session = await currentSession(db, tenant, req, now);
        if (session && session.identity_id !== flow.identity_id) throw badRequest('Unable to complete SAML flow because the session is not the settings flow\'s identity.');
        const to = await settingsLink(db, tenant, flow, provider, profile.nameID, now);
        return reply.code(303).header('location', to).send();
      }
      const to = await signInOrRegister(deps, req, reply, tenant, flow, provider, profile, now);
      return reply.code(303).header('location', to).send();
    },
  });
}

async function signInOrRegister(
  deps: IdentityDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  tenant: Tenant,
  flow: FlowRow,
  provider: SamlProvider,
  profile: Profile,
  now: Date,
): Promise<string> {
  const { db } = deps.ctx;
  const subject = profile.nameID;
  let identityId = (await findOidcLink(db, tenant.nid, provider.id, subject, 'saml'))?.identity_id;
  const registered = !identityId;
  if (!identityId) {
    const schema = defaultSchema(await tenantSchemas(db, tenant.nid)).schema;
    const shape = traitShape(schema);
    const claims = samlClaims(attributesOf(profile), subject, provider.attributes_map);
    const traits = defaultClaimsMapping(claims, shape.names, shape.nameIsObject);
    const problem = traitsProblem(schema, traits);
    if (problem) throw badRequest(`Unable to register from the SAML assertion: the identity's traits are invalid (${problem}). Map the missing attributes in the provider's attribute mapping.`);
    const identifiers = traitIdentifiers(schema, traits);
    try {
      identityId = await db.tx(async (q) => {
        const id = await insertIdentity(q, tenant.nid, {
          schemaId: 'default',
          traits: traits as Traits,
          state: 'active',
          metadataPublic: null,
          metadataAdmin: null,
          identifiers: { ...identifiers, password: null },
        });
        await insertOidcLink(q, tenant.nid, id, provider.id, subject, now, 'saml');
        // The identity provider vouches for the address of a signed assertion.
        const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
        if (email && identifiers.verifiable.some((a) => a.via === 'email' && a.value === email)) await setAddressVerified(q, tenant.nid, id, email, true);
        return id;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // The email belongs to another account: a login flow offers to link the provider to it (as for social sign-in).
      return (await accountLinkingFlow(db, tenant, flow, { method: 'saml', id: provider.id, label: samlProviderLabel(provider) }, identifiers.password ?? identifiers.verifiable[0]?.value ?? '', subject, now)).to;
    }
    deps.ctx.log.info({ nid: tenant.nid, identity_id: identityId, provider: provider.id }, 'identity registered with a SAML provider');
  }
  const id = identityId;
  const settings = await identitySettings(db, tenant.nid);
  const session = await db.tx(async (q) => {
    await markPassed(q, flow, deps.ctx.clock.now());
    const issued = await issueSession(q, req, tenant.nid, id, 'saml', settings.sessionLifespanMs ?? deps.sessionLifespanMs, deps.ctx.clock);
    // What single logout names this session by.
    await q.orm.insert(samlSessions).values({
      nid: tenant.nid,
      session_id: issued.id,
      provider: provider.id,
      name_id: subject,
      name_id_format: profile.nameIDFormat ?? null,
      session_index: profile.sessionIndex ?? null,
    });
    return issued;
  });
  deps.ctx.log.info({ nid: tenant.nid, identity_id: id, provider: provider.id }, 'identity signed in with a SAML provider');
  setSessionCookie(reply, tenant, session, isSecure(deps, req));
  // A sign-in that registered ends where sign-ups do, any other where sign-ins do (Kratos' post-registration and post-login hooks).
  return flow.return_to ?? returnUrlAfter(settings, registered ? 'registration' : 'login', 'saml') ?? uiLink(tenant.uiUrl, '/');
}

/** Links the assertion's subject to the settings flow's identity, unless it belongs to an identity already. */
async function settingsLink(db: Db, tenant: Tenant, flow: FlowRow, provider: SamlProvider, subject: string, now: Date): Promise<string> {
  flow.ui.messages = [];
  if (await findOidcLink(db, tenant.nid, provider.id, subject, 'saml')) {
    flow.ui.messages = [texts.duplicateCredentials()];
  } else {
    try {
      await insertOidcLink(db, tenant.nid, flow.identity_id ?? '', provider.id, subject, now, 'saml');
      flow.state = 'success';
      flow.ui.messages = [texts.settingsSaved()];
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      flow.ui.messages = [texts.duplicateCredentials()];
    }
  }
  flow.ui.nodes = [...flow.ui.nodes.filter((n) => n.group !== 'saml' && n.group !== 'oidc'), ...(await oidcSettingsNodes(db, tenant.nid, flow.identity_id)), ...(await samlSettingsNodes(db, tenant.nid, flow.identity_id))];
  await saveFlow(db, flow, now);
  return uiLink(tenant.uiUrl, '/settings', { flow: flow.id });
}
