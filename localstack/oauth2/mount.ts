import { once } from 'node:events';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { HydraError } from './hydra-clients';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isConnectionError } from '../kernel/db-errors';

/** The paths below a project's base that oidc-provider answers (Hydra's public API). */
/** The requests whose `scope` parameter oidc-provider checks against the client's. */
const SCOPED_PATHS = new Set(['/oauth2/auth', '/oauth2/token', '/oauth2/device/auth']);
/** oidc-provider's own limit on a form body. */
const FORM_LIMIT = 56 * 1024;

export const PUBLIC_PATHS = ['/oauth2/*', '/userinfo', '/.well-known/openid-configuration', '/.well-known/jwks.json'];

/**
 * Serves a project's authorization server on Hydra's public paths of `scope` (registered under the project's
 * base). oidc-provider reads the request body itself, so these routes leave it unread, and it learns its mount
 * path the way Express tells it: `originalUrl` is the whole path, `url` the part below the base. Give it a scope
 * of its own: it takes over the scope's body parsing.
 */
export function servePublicOAuth2(
  scope: FastifyInstance,
  providerFor: (req: FastifyRequest) => Promise<{
    provider: Provider;
    basePath: string;
    /**
     * The base's path as the browser sees it (behind a proxy with `x-forwarded-prefix`, say `/.ory`), where
     * oidc-provider scopes its cookies and builds its URLs; `basePath` when it is the same.
     */
    publicPath?: string;
    /** The xsrf secret of an accepted logout request's verifier (see logout.ts); throws when it is not one. */
    redeemLogout?(verifier: string): Promise<string>;
    /** The xsrf secret and user code of an accepted device request's verifier (see device.ts); throws when it is not one. */
    redeemDevice?(verifier: string): Promise<{ xsrf: string; userCode: string }>;
    /** Where a browser is sent with Hydra's `error` and `error_description` when its logout cannot finish. */
    errorUrl?: string;
    /** Told the `scope` parameter of an authorization, device or token request before oidc-provider reads it. */
    learnScopes?(scope: string): void;
  }>,
): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  const callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const callbackOf = (provider: Provider) => {
    let callback = callbacks.get(provider);
    if (!callback) callbacks.set(provider, (callback = provider.callback()));
    return callback;
  };
  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const { provider, basePath, publicPath, redeemLogout, redeemDevice, errorUrl, learnScopes } = await providerFor(req);
    const raw = req.raw as typeof req.raw & { originalUrl?: string; body?: string };
    const url = raw.url ?? '/';
    raw.url = url.startsWith(basePath) ? url.slice(basePath.length) || '/' : url;
    raw.originalUrl = publicPath === undefined ? url : `${publicPath}${raw.url}`;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const path = raw.url.split('?')[0];
    /** The request goes on to oidc-provider as the POST of this form to `to` (its own confirmation step). */
    const repost = async (to: string, form: Record<string, string>) => {
      if (!raw.readableEnded) {
        raw.resume();
        await once(raw, 'end');
      }
      const body = new URLSearchParams(form).toString();
      raw.method = 'POST';
      raw.url = to;
      raw.originalUrl = `${publicPath ?? basePath}${raw.url}`;
      raw.headers['content-type'] = 'application/x-www-form-urlencoded';
      raw.headers['content-length'] = String(Buffer.byteLength(body));
      raw.body = body;
    };
    if (learnScopes && SCOPED_PATHS.has(path ?? '')) {
      // The scopes a request names become known to the server first, so that it checks each against the
      // client's by the project's scope strategy (scope-strategy.ts). A form body is read here and handed on.
      const scopes: string[] = [];
      if (typeof query.scope === 'string') scopes.push(query.scope);
      if (req.method === 'POST' && /^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '') && !raw.readableEnded) {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of raw) {
          size += (chunk as Buffer).length;
          if (size > FORM_LIMIT) return reply.code(413).send({ error: 'invalid_request', error_description: 'The request body is too large.' });
          chunks.push(chunk as Buffer);
        }
        raw.body = Buffer.concat(chunks).toString('utf8');
        const scope = new URLSearchParams(raw.body).get('scope');
        if (scope !== null) scopes.push(scope);
      }
      for (const scope of scopes) learnScopes(scope);
    }
    const deviceVerifier = query.device_verifier;
    if (redeemDevice && req.method === 'GET' && path === '/oauth2/device/verify' && typeof deviceVerifier === 'string') {
      // An accepted device request comes back here: it becomes oidc-provider's confirmation of the user code (the
      // session's xsrf secret, the code, confirm), and the device authorization goes on to login and consent.
      let redeemed: { xsrf: string; userCode: string };
      try {
        redeemed = await redeemDevice(deviceVerifier);
      } catch (err) {
        if (!(err instanceof HydraError)) throw err;
        return reply.code(err.status).send(err.body);
      }
      await repost('/oauth2/device/verify', { xsrf: redeemed.xsrf, user_code: redeemed.userCode, confirm: 'yes' });
    }
    const verifier = query.logout_verifier;
    if (redeemLogout && req.method === 'GET' && path === '/oauth2/sessions/logout' && typeof verifier === 'string') {
      // An accepted logout request comes back here: it becomes oidc-provider's own logout confirmation (a POST of
      // the session's xsrf secret), so the session ends exactly as oidc-provider ends it.
      let xsrf: string;
      try {
        xsrf = await redeemLogout(verifier);
      } catch (err) {
        if (!(err instanceof HydraError)) throw err;
        // As Hydra, the public endpoint answers a failure by sending the browser to the error page.
        if (!errorUrl) return reply.code(err.status).send(err.body);
        const to = new URL(errorUrl);
        to.searchParams.set('error', err.body.error);
        to.searchParams.set('error_description', err.body.error_description);
        return reply.code(302).header('location', to.href).send();
      }
      await repost('/oauth2/sessions/logout/confirm', { xsrf, logout: 'yes' });
    }
    reply.hijack();
    await callbackOf(provider)(raw, reply.raw);
  };
  // The project's server is looked up before oidc-provider answers: a database gone by then is answered as
  // oidc-provider's own endpoints answer it (provider.ts), in OAuth's error shape.
  const answer = async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await handle(req, reply);
    } catch (err) {
      if (!isConnectionError(err) || reply.sent) throw err;
      req.log.warn({ err }, 'database connection lost before the OAuth2 server answered');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ error: 'temporarily_unavailable', error_description: DATABASE_UNAVAILABLE });
    }
  };
  for (const path of PUBLIC_PATHS) scope.all(path, answer);
}
