import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, type JWK, type JWTPayload } from 'jose';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { ArtefactStore, StoredJwk } from './storage';

/**
 * The JWT-bearer grant (RFC 7523) as Hydra serves it, registered on oidc-provider as an extension grant: an
 * authenticated client presents an assertion signed by an issuer the project trusts (Hydra's trusted JWT-grant
 * issuers, `/admin/trust/grants/jwt-bearer/issuers`) and gets an access token for the assertion's subject, with
 * no more scope than the trust allows. The checks and their order, and every refusal's text, are Hydra's (fosite's
 * rfc7523 handler); the signature is checked by `jose`.
 */

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Kind of the artefact that records an assertion's `jti` until the assertion expires (a replay is refused). */
export const USED_JTI = 'JwtBearerJti';
/** Kind of the artefact that records a trusted JWT-grant issuer (see admin-extra-routes.ts). */
export const TRUSTED_ISSUER = 'TrustedJwtIssuer';

const INVALID_GRANT =
  'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';
const INVALID_REQUEST =
  'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.';

const invalidGrant = (hint: string) => new errors.CustomOIDCProviderError('invalid_grant', `${INVALID_GRANT} ${hint}`);

export interface JwtBearerDeps {
  artefacts: ArtefactStore;
  /** The public keys a trusted issuer registered (the set named after the issuer). */
  issuerKeys(issuer: string): Promise<StoredJwk[]>;
  /** Seconds since the epoch, from the stack's clock. */
  now(): number;
  settings: { jtiOptional: boolean; iatOptional: boolean; maxTtl: number };
  /** The resource server a JWT access token is formatted for, or undefined for an opaque token. */
  resourceServer(ctx: KoaContextWithOIDC): InstanceType<Provider['ResourceServer']> | undefined;
}

interface Trust {
  subject: string;
  allowAnySubject: boolean;
  scope: string[];
  kid: string;
  expiresAt: number;
}

const rfc3339 = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

async function trustsOf(deps: JwtBearerDeps, issuer: string, subject: string): Promise<Trust[]> {
  const now = deps.now();
  return (await deps.artefacts.listByPayload(TRUSTED_ISSUER, { field: 'issuer', value: issuer }))
    .map((t) => ({
      subject: String(t.payload.subject ?? ''),
      allowAnySubject: t.payload.allow_any_subject === true,
      scope: Array.isArray(t.payload.scope) ? t.payload.scope.map(String) : [],
      kid: String(t.payload.kid ?? ''),
      expiresAt: Math.floor(new Date(String(t.payload.expires_at)).getTime() / 1000),
    }))
    .filter((t) => t.expiresAt > now && (t.allowAnySubject || t.subject === subject));
}

export function registerJwtBearerGrant(provider: Provider, deps: JwtBearerDeps): void {
  const handler = async (ctx: KoaContextWithOIDC) => {
    const params = ctx.oidc.params as { assertion?: string; scope?: string };
    const client = ctx.oidc.client!;
    if (!params.assertion) {
      throw new errors.CustomOIDCProviderError('invalid_request', `${INVALID_REQUEST} The assertion request parameter must be set when using grant_type of '${JWT_BEARER}'.`);
    }
    let claims: JWTPayload;
    let kid: string | undefined;
    try {
      claims = decodeJwt(params.assertion);
      kid = decodeProtectedHeader(params.assertion).kid;
    } catch {
      throw invalidGrant('Unable to parse JSON Web Token passed in "assertion" request parameter.');
    }
    if (!claims.iss) throw invalidGrant('The JWT in "assertion" request parameter MUST contain an "iss" (issuer) claim.');
    if (!claims.sub) throw invalidGrant('The JWT in "assertion" request parameter MUST contain a "sub" (subject) claim.');
    const { iss, sub } = claims;

    // The issuer's trusts of this subject whose keys could have signed the assertion.
    const trusts = (await trustsOf(deps, iss, sub)).filter((t) => !kid || t.kid === kid);
    const keys = (await deps.issuerKeys(iss)).filter((k) => trusts.some((t) => t.kid === k.kid));
    let trust: Trust | undefined;
    for (const key of keys) {
      try {
        await compactVerify(params.assertion, await importJWK(key as JWK, typeof key.alg === 'string' ? key.alg : undefined));
        trust = trusts.find((t) => t.kid === key.kid);
        break;
      } catch {
        // not this key
      }
    }
    if (!trust) {
      if (kid && keys.length > 0) throw invalidGrant("Unable to verify the integrity of the 'assertion' value.");
      throw invalidGrant(
        `No public JWK was registered for issuer "${iss}" and subject "${sub}", and public key is required to check signature of JWT in "assertion" request parameter.`,
      );
    }

    const now = deps.now();
    // The token endpoint as the client reached it (not the issuer, which a project may name otherwise).
    const tokenUrl = ctx.oidc.urlFor('token');
    const audience = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (audience.length === 0) throw invalidGrant('The JWT in "assertion" request parameter MUST contain an "aud" (audience) claim.');
    if (!audience.includes(tokenUrl)) {
      throw invalidGrant(
        `The JWT in "assertion" request parameter MUST contain an "aud" (audience) claim containing a value "${tokenUrl}" that identifies the authorization server as an intended audience.`,
      );
    }
    if (typeof claims.exp !== 'number') throw invalidGrant('The JWT in "assertion" request parameter MUST contain an "exp" (expiration time) claim.');
    if (claims.exp < now) throw invalidGrant('The JWT in "assertion" request parameter expired.');
    if (typeof claims.nbf === 'number' && claims.nbf >= now) {
      throw invalidGrant(
        `The JWT in "assertion" request parameter contains an "nbf" (not before) claim, that identifies the time '${rfc3339(claims.nbf)}' before which the token MUST NOT be accepted.`,
      );
    }
    if (!deps.settings.iatOptional && typeof claims.iat !== 'number') {
      throw invalidGrant('The JWT in "assertion" request parameter MUST contain an "iat" (issued at) claim.');
    }
    const issuedAt = typeof claims.iat === 'number' ? claims.iat : now;
    if (claims.exp - issuedAt > deps.settings.maxTtl) {
      throw invalidGrant(
        `The JWT in "assertion" request parameter contains an "exp" (expiration time) claim with value "${rfc3339(claims.exp)}" that is unreasonably far in the future, considering token issued at "${rfc3339(issuedAt)}".`,
      );
    }
    if (!deps.settings.jtiOptional && !claims.jti) {
      throw invalidGrant('The JWT in "assertion" request parameter MUST contain an "jti" (JWT ID) claim.');
    }
    if (claims.jti && (await deps.artefacts.find(USED_JTI, claims.jti))) {
      throw new errors.CustomOIDCProviderError('jti_known', 'The jti was already used.');
    }

    // Every requested scope must be the client's and allowed by the trust.
    const requested = (params.scope ?? '').split(' ').filter(Boolean);
    const clientScopes = new Set(typeof client.scope === 'string' ? client.scope.split(' ') : []);
    for (const scope of requested) {
      if (!clientScopes.has(scope)) {
        throw new errors.CustomOIDCProviderError('invalid_scope', `The requested scope is invalid, unknown, or malformed. The OAuth 2.0 Client is not allowed to request scope '${scope}'.`);
      }
      if (!trust.scope.includes(scope)) {
        throw new errors.CustomOIDCProviderError(
          'invalid_scope',
          `The requested scope is invalid, unknown, or malformed. The public key registered for issuer "${iss}" and subject "${sub}" is not allowed to request scope "${scope}".`,
        );
      }
    }
    if (claims.jti) {
      await deps.artefacts.upsert(USED_JTI, claims.jti, { payload: { exp: claims.exp }, expiresAt: claims.exp, grantId: null, userCode: null, uid: null });
    }

    // The token is the subject's: a grant of the client for the subject holds its scopes.
    const grant = new provider.Grant({ accountId: sub, clientId: client.clientId });
    if (requested.length) grant.addOIDCScope(requested.join(' '));
    const grantId = await grant.save();
    const token = new provider.AccessToken({
      accountId: sub,
      client,
      grantId,
      gty: 'jwt_bearer',
      scope: requested.join(' ') || undefined,
    });
    const resourceServer = deps.resourceServer(ctx);
    if (resourceServer) token.resourceServer = resourceServer;
    ctx.oidc.entity('AccessToken', token);
    const value = await token.save();
    ctx.body = {
      access_token: value,
      expires_in: token.expiration,
      ...(token.scope ? { scope: token.scope } : {}),
      token_type: token.tokenType,
    };
  };
  provider.registerGrantType(JWT_BEARER, handler as never, ['assertion', 'scope']);
}
