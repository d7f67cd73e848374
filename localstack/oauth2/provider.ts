import { createHash, timingSafeEqual } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import { adapterFactory } from './adapter';
import { EXTRA_CLIENT_METADATA, SUPPORTED_AUTH_METHODS, SUPPORTED_RESPONSE_TYPES } from './client-mapping';
import { SIGNING_ALG } from './keys';
import { createDeviceRequest, deviceErrorPage } from './device';
import { JWT_BEARER, registerJwtBearerGrant } from './jwt-bearer';
import { createLogoutRequest } from './logout';
import { parseDuration, type OAuth2Settings } from './settings';
import { createScopeBook, type ScopeBook } from './scope-strategy';
// oidc-provider's per-instance state (its configuration as it reads it); no public API exposes the known scopes.
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isConnectionError } from '../kernel/db-errors';
import providerInternals from 'oidc-provider/lib/helpers/weak_cache.js';
import type { ArtefactStore, ClientStore, SigningKey, StoredJwk } from './storage';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** Hydra's public paths, given to oidc-provider's routes (discovery is `/.well-known/openid-configuration` on both). */
export const HYDRA_ROUTES = {
  authorization: '/oauth2/auth',
  token: '/oauth2/token',
  revocation: '/oauth2/revoke',
  introspection: '/oauth2/introspect',
  end_session: '/oauth2/sessions/logout',
  userinfo: '/userinfo',
  jwks: '/.well-known/jwks.json',
  device_authorization: '/oauth2/device/auth',
  code_verification: '/oauth2/device/verify',
} as const;

/** The scopes every project understands besides its clients' own (Hydra grants a refresh token for either offline scope). */
export const OIDC_SCOPES = ['openid', 'offline_access', 'offline', 'email', 'profile', 'address', 'phone'];

/** What the consent accept stored for a grant: the claims of Hydra's `session.id_token` and `session.access_token`. */
export const CONSENT_SESSION = 'ConsentSession';

export interface ProviderOptions {
  /** The `iss` of every token: the project's data-plane base, or the issuer its config names. */
  issuer: string;
  /** Where the project's public paths answer, `<stack>/project-api/{slug}` (the issuer when left out). */
  publicBase?: string;
  /** Whether `/oauth2/register` answers here (Hydra names it in discovery whether enabled or not). */
  registration?: boolean;
  settings: OAuth2Settings;
  artefacts: ArtefactStore;
  clients: ClientStore;
  /** Private signing keys, the first signs. */
  signingKeys: SigningKey[];
  /** Secrets that sign the provider's cookies, the first signs. */
  cookieKeys: string[];
  /** Where a browser goes to sign in, consent or log out when the project's config names no URL of its own. */
  fallbackUrls: { login: string; consent: string; logout?: string; device?: string };
  /** The public keys a trusted JWT-grant issuer registered (none when left out). */
  issuerKeys?(issuer: string): Promise<StoredJwk[]>;
  /**
   * The scopes the project's clients name. oidc-provider refuses a client whose `scope` lists a value the server
   * was not built with, so a project's server knows every scope of its clients (and is rebuilt when they change).
   */
  scopes?: string[];
  /**
   * The scopes the server knows, learned from requests as well (see scope-strategy.ts); built from `scopes` and the
   * settings' strategy when left out.
   */
  scopeBook?: ScopeBook;
  /** Seconds since the epoch, from the stack's clock. */
  now(): number;
}

const withQuery = (url: string, name: string, value: string) => {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return u.href;
};

const clientField = (client: unknown, field: string): unknown =>
  client && typeof client === 'object' ? (client as Record<string, unknown>)[field] : undefined;

/** Hydra's name of the grant a token is issued by, from the token request (or the authorization request). */
function grantOf(ctx: KoaContextWithOIDC | undefined): 'authorization_code' | 'refresh_token' | 'client_credentials' | 'device_authorization' | 'jwt_bearer' | 'implicit' {
  const grantType = ctx?.oidc?.params?.grant_type;
  if (grantType === JWT_BEARER) return 'jwt_bearer';
  if (grantType === 'refresh_token') return 'refresh_token';
  if (grantType === 'client_credentials') return 'client_credentials';
  if (grantType === 'urn:ietf:params:oauth:grant-type:device_code') return 'device_authorization';
  if (grantType === 'authorization_code') return 'authorization_code';
  return ctx?.oidc?.route === 'authorization' ? 'implicit' : 'authorization_code';
}

/** The client's own lifespan of a token issued by the request's grant (`<grant>_grant_<token>_lifespan`), in seconds. */
function clientLifespan(ctx: KoaContextWithOIDC | undefined, client: unknown, token: 'access_token' | 'id_token' | 'refresh_token'): number | undefined {
  const value = clientField(client, `${grantOf(ctx)}_grant_${token}_lifespan`);
  const seconds = typeof value === 'string' ? parseDuration(value) : null;
  return seconds !== null && seconds > 0 ? seconds : undefined;
}

const sameSecret = (a: string, b: string) => {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
};

/**
 * A project's authorization server: oidc-provider, configured from the project's Hydra settings, reading and
 * writing through the given stores. A change of settings, keys or issuer means a new provider (see the cache in
 * `registry.ts`): oidc-provider fixes its configuration when it is built.
 */
export function createProvider(opts: ProviderOptions): Provider {
  const { settings, artefacts, issuer } = opts;
  const scopeBook = opts.scopeBook ?? createScopeBook([...OIDC_SCOPES, ...(opts.scopes ?? [])], settings.scopeStrategy);
  for (const scope of OIDC_SCOPES) scopeBook.known.add(scope);
  const strategyOf = (client: unknown) => {
    const own = clientField(client, 'access_token_strategy');
    return own === 'jwt' || own === 'opaque' ? own : settings.accessTokenStrategy;
  };
  const audienceOf = (client: unknown): string[] => {
    const audience = clientField(client, 'audience');
    return Array.isArray(audience) ? audience.filter((a): a is string => typeof a === 'string') : [];
  };

  const deviceVerificationUrl = settings.urls.deviceVerification ?? opts.fallbackUrls.device;
  /** Sends the browser to the device verification page with a new device challenge, or shows oidc-provider's form without one. */
  const toDeviceVerification = async (ctx: KoaContextWithOIDC, form: string, userCode?: string) => {
    if (!deviceVerificationUrl) {
      ctx.type = 'html';
      ctx.body = deviceErrorPage(form, userCode ? `Confirm the code ${userCode} shown on your device.` : 'Enter the code shown on your device.');
      return;
    }
    const to = await createDeviceRequest({ artefacts, now: opts.now, lifespan: settings.ttl.deviceUserCode, verificationUrl: deviceVerificationUrl }, ctx, userCode);
    ctx.status = 302;
    ctx.redirect(to);
  };

  const resourceServerInfo = (ctx: KoaContextWithOIDC, resource: string, client: { scope?: string | undefined }): ResourceServer => ({
    scope: typeof client.scope === 'string' ? client.scope : OIDC_SCOPES.join(' '),
    audience: resource,
    accessTokenFormat: strategyOf(client),
    accessTokenTTL: clientLifespan(ctx, client, 'access_token') ?? settings.ttl.accessToken,
    jwt: { sign: { alg: SIGNING_ALG } },
  });

  const configuration: Configuration = {
    adapter: adapterFactory(artefacts, opts.clients, opts.now, scopeBook.grantable),
    jwks: { keys: opts.signingKeys as never },
    cookies: {
      keys: opts.cookieKeys,
      long: { httpOnly: true, sameSite: settings.cookieSameSite.toLowerCase() as 'lax', path: new URL(opts.publicBase ?? issuer).pathname },
      short: { httpOnly: true, sameSite: settings.cookieSameSite.toLowerCase() as 'lax', path: new URL(opts.publicBase ?? issuer).pathname },
    },
    routes: HYDRA_ROUTES,
    scopes: [...scopeBook.known],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'family_name', 'given_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture', 'website', 'gender', 'birthdate', 'zoneinfo', 'locale', 'updated_at'],
      address: ['address'],
      phone: ['phone_number', 'phone_number_verified'],
    },
    responseTypes: [...SUPPORTED_RESPONSE_TYPES],
    clientAuthMethods: [...SUPPORTED_AUTH_METHODS],
    subjectTypes: settings.subjectTypes,
    pairwiseIdentifier: async (_ctx, accountId, client) =>
      createHash('sha256').update(`${client.sectorIdentifier ?? ''}${accountId}${settings.pairwiseSalt}`).digest('hex'),
    extraClientMetadata: { properties: [...EXTRA_CLIENT_METADATA] },
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: SIGNING_ALG,
    },
    conformIdTokenClaims: false,
    pkce: {
      required: (_ctx, client) =>
        settings.pkce.enforced || (settings.pkce.enforcedForPublicClients && client.clientAuthMethod === 'none'),
    },
    ttl: {
      AccessToken: (ctx, _token, client) => clientLifespan(ctx, client, 'access_token') ?? settings.ttl.accessToken,
      ClientCredentials: (ctx, _token, client) => clientLifespan(ctx, client, 'access_token') ?? settings.ttl.accessToken,
      AuthorizationCode: settings.ttl.authCode,
      IdToken: (ctx, _token, client) => clientLifespan(ctx, client, 'id_token') ?? settings.ttl.idToken,
      RefreshToken: (ctx, _token, client) => clientLifespan(ctx, client, 'refresh_token') ?? settings.ttl.refreshToken,
      Grant: settings.ttl.refreshToken,
      Interaction: settings.ttl.loginConsentRequest,
      Session: settings.ttl.refreshToken,
      DeviceCode: settings.ttl.deviceUserCode,
    },
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && (code.scopes.has('offline_access') || code.scopes.has('offline')),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // A signed-in browser goes to the project's logout page with Hydra's logout_challenge rather than to
        // oidc-provider's own confirmation page (see logout.ts); without a logout page, that page is shown.
        logoutSource: async (ctx, form) => {
          const logoutUrl = settings.urls.logout ?? opts.fallbackUrls.logout;
          if (!logoutUrl) {
            ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Log out</title></head><body>${form}<button form="op.logoutForm" type="submit" name="logout" value="yes">Log out</button></body></html>`;
            return;
          }
          // Hydra sends the browser to the project's post-logout URL when the relying party names none (without state).
          const state = ctx.oidc.session!.state as { postLogoutRedirectUri?: string; state?: string };
          if (!state.postLogoutRedirectUri && settings.urls.postLogoutRedirect) {
            state.postLogoutRedirectUri = settings.urls.postLogoutRedirect;
            state.state = undefined;
          }
          const to = await createLogoutRequest(
            { artefacts, clients: opts.clients, now: opts.now, lifespan: settings.ttl.loginConsentRequest, logoutUrl },
            ctx,
          );
          ctx.status = 302;
          ctx.redirect(to);
        },
        // Without a post_logout_redirect_uri the browser lands on the project's post-logout URL, as with Hydra.
        postLogoutSuccessSource: async (ctx) => {
          if (settings.urls.postLogoutRedirect) {
            ctx.status = 302;
            ctx.redirect(settings.urls.postLogoutRedirect);
            return;
          }
          ctx.type = 'html';
          ctx.body = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Signed out</title></head><body><p>You are signed out.</p></body></html>';
        },
      },
      deviceFlow: {
        enabled: true,
        // The browser enters the user code on the project's device verification page (Hydra's device
        // challenge, see device.ts) rather than on oidc-provider's own form; a refused code is said here.
        userCodeInputSource: async (ctx, form, _out, err) => {
          if (err) {
            ctx.type = 'html';
            ctx.body = deviceErrorPage(form, String((err as { error_description?: string }).error_description ?? err.message));
            return;
          }
          await toDeviceVerification(ctx, form);
        },
        // A code given in the link (`verification_uri_complete`) is shown filled in on the same page.
        userCodeConfirmSource: async (ctx, form, _client, _deviceInfo, userCode) => {
          await toDeviceVerification(ctx, form, userCode);
        },
        successSource: async (ctx) => {
          if (settings.urls.deviceSuccess) {
            ctx.status = 302;
            ctx.redirect(settings.urls.deviceSuccess);
            return;
          }
          ctx.type = 'html';
          ctx.body =
            '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Device signed in</title></head><body><p data-testid="device-success">You can now close this window and return to the application.</p></body></html>';
        },
      },
      resourceIndicators: {
        enabled: true,
        // A client whose tokens are JWTs gets them for its first audience, or for the project itself: oidc-provider
        // formats a token by the resource it is for, so JWT access tokens always name one.
        defaultResource: async (_ctx, client, oneOf) => {
          if (oneOf) return oneOf;
          if (strategyOf(client) !== 'jwt') return undefined as unknown as string;
          return audienceOf(client)[0] ?? issuer;
        },
        // An OpenID Connect code flow's access token stays opaque so that userinfo accepts it (oidc-provider's
        // userinfo takes no token meant for another audience); a plain OAuth2 flow's follows the strategy.
        useGrantedResource: async () => false,
        getResourceServerInfo: async (ctx, resource, client) => {
          if (resource !== issuer && !audienceOf(client).includes(resource)) throw new errors.InvalidTarget();
          return resourceServerInfo(ctx, resource, client);
        },
      },
    },
    clientBasedCORS: (_ctx, origin, client) => {
      const origins = clientField(client, 'allowed_cors_origins');
      return Array.isArray(origins) && origins.includes(origin);
    },
    interactions: {
      url: async (_ctx: KoaContextWithOIDC, interaction) =>
        interaction.prompt.name === 'login'
          ? withQuery(settings.urls.login ?? opts.fallbackUrls.login, 'login_challenge', interaction.uid)
          : withQuery(settings.urls.consent ?? opts.fallbackUrls.consent, 'consent_challenge', interaction.uid),
    },
    // A client that skips consent (Hydra's `skip_consent`) is granted what it asks for without a consent screen.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      if (clientField(ctx.oidc.client, 'skip_consent') !== true || !ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId: ctx.oidc.session.accountId, clientId: ctx.oidc.client!.clientId });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? ''));
      await grant.save();
      return grant;
    },
    findAccount: async (ctx, sub, token) => ({
      accountId: sub,
      async claims() {
        const grantId = (token as { grantId?: string } | undefined)?.grantId ?? ctx.oidc.entities.Grant?.jti;
        const session = grantId ? await artefacts.find(CONSENT_SESSION, grantId) : null;
        const idToken = session?.payload.id_token;
        return { ...(idToken && typeof idToken === 'object' ? idToken : {}), sub };
      },
    }),
  };
  const provider = new Provider(issuer, configuration);
  // oidc-provider copies the scopes it is given; the book learns into the copy it reads (see scope-strategy.ts).
  const live = providerInternals(provider)?.configuration?.scopes;
  if (!(live instanceof Set)) throw new Error("oidc-provider's set of known scopes was not found: check the scope book against this oidc-provider version");
  scopeBook.adopt(live as Set<string>);
  registerJwtBearerGrant(provider, {
    artefacts,
    issuerKeys: opts.issuerKeys ?? (async () => []),
    now: opts.now,
    settings: settings.jwtBearer,
    // A client whose tokens are JWTs gets a JWT for its first audience, or for the project itself.
    resourceServer: (ctx) => {
      const client = ctx.oidc.client!;
      if (strategyOf(client) !== 'jwt') return undefined;
      const resource = audienceOf(client)[0] ?? issuer;
      return new provider.ResourceServer(resource, resourceServerInfo(ctx, resource, client));
    },
  });
  // Device polling (RFC 8628 §3.5): the authorization answer names the interval, and a device polling a pending
  // authorization sooner than that is told slow_down, as Hydra does.
  const lastPolls = new Map<string, number>();
  // A database that went away is answered 503 with Retry-After, as on every other endpoint of the stack, not
  // oidc-provider's server_error 500: a client can try again. Its route error handler has rendered the answer by
  // the time the request comes back here; the server_error event it emits names the cause.
  const databaseLost = new WeakSet<object>();
  provider.on('server_error', (ctx: object, err: unknown) => {
    if (isConnectionError(err)) databaseLost.add(ctx);
  });
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      // Failed outside a route's error handler: Koa would answer 500.
      if (!isConnectionError(err)) throw err;
      databaseLost.add(ctx);
      ctx.status = 500;
      ctx.body = undefined;
    }
    if (!databaseLost.has(ctx) || ctx.status !== 500) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    // A rendered error page stays (with the new status); a JSON answer says what happened.
    if (!ctx.response.is('html')) ctx.body = { error: 'temporarily_unavailable', error_description: DATABASE_UNAVAILABLE };
  });
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc as KoaContextWithOIDC['oidc'] | undefined;
    if (!oidc) return;
    const body = ctx.body as Record<string, unknown> | undefined;
    // Hydra names its dynamic registration endpoint in discovery (it answers once the project enables it).
    if (oidc.route === 'discovery' && opts.registration !== false && ctx.status === 200 && body && typeof body === 'object') {
      ctx.body = { ...body, registration_endpoint: `${opts.publicBase ?? issuer}/oauth2/register` };
      return;
    }
    if (oidc.route === 'device_authorization' && ctx.status === 200 && body && typeof body === 'object') {
      ctx.body = { ...body, interval: settings.devicePollingInterval };
      return;
    }
    // A client using a grant it does not list is unauthorized_client to Hydra (oidc-provider says invalid_request).
    if (oidc.route === 'token' && body?.error === 'invalid_request' && body.error_description === 'requested grant type is not allowed for this client') {
      ctx.body = {
        error: 'unauthorized_client',
        error_description: `The client is not authorized to request a token using this method. The OAuth 2.0 Client is not allowed to use authorization grant "${String(oidc.params?.grant_type ?? '')}".`,
      };
      return;
    }
    // A scope the client may not request is refused in Hydra's words, naming the scope.
    const refusedScope = () => {
      const grantable = String(oidc.client?.scope ?? '').split(' ');
      return String(oidc.params?.scope ?? '').split(' ').find((s) => s && !grantable.includes(s)) ?? '';
    };
    const hydraScopeRefusal = () => `The requested scope is invalid, unknown, or malformed. The OAuth 2.0 Client is not allowed to request scope '${refusedScope()}'.`;
    if (oidc.route === 'token' && body?.error === 'invalid_scope' && body.error_description === 'requested scope is not allowed') {
      ctx.body = { error: 'invalid_scope', error_description: hydraScopeRefusal() };
      return;
    }
    const location = ctx.response.get('location');
    if (oidc.route === 'authorization' && location) {
      const to = URL.canParse(location) ? new URL(location) : null;
      const params = to?.hash ? new URLSearchParams(to.hash.slice(1)) : to?.searchParams;
      if (to && params?.get('error') === 'invalid_scope' && params.get('error_description') === 'requested scope is not allowed') {
        params.set('error_description', hydraScopeRefusal());
        if (to.hash) to.hash = params.toString();
        ctx.redirect(to.href);
      }
      return;
    }
    if (oidc.route !== 'token' || oidc.params?.grant_type !== DEVICE_CODE_GRANT || body?.error !== 'authorization_pending') return;
    const key = createHash('sha256').update(String(oidc.params.device_code ?? '')).digest('base64url');
    const at = opts.now();
    for (const [k, last] of lastPolls) if (at - last > settings.ttl.deviceUserCode) lastPolls.delete(k);
    const last = lastPolls.get(key);
    lastPolls.set(key, at);
    if (last !== undefined && at - last < settings.devicePollingInterval) {
      ctx.body = {
        error: 'slow_down',
        error_description: "The authorization request was rate-limited to prevent system overload. Ensure that you don't call the token endpoint sooner than the polling interval",
      };
    }
  });
  // A secret replaced by a rotation still authenticates the client until its rotated secrets are deleted.
  const ClientModel = provider.Client as unknown as { prototype: { compareClientSecret(this: unknown, actual: string): boolean | Promise<boolean> } };
  const compare = ClientModel.prototype.compareClientSecret;
  ClientModel.prototype.compareClientSecret = async function (this: unknown, actual: string) {
    if (await compare.call(this, actual)) return true;
    const rotatedSecrets = clientField(this, 'rotated_secrets');
    return Array.isArray(rotatedSecrets) && rotatedSecrets.some((s) => typeof s === 'string' && sameSecret(s, actual));
  };
  return provider;
}
