import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeReturnToUrl } from '../shared/domain/return-to';
import { evictSession } from './deps';
import { errorBody } from '../shared/ory-error';
import { returnToInBody, staysOnOrigin, withoutForeignReturnTo } from './ory-return-to';
import { deadline } from './upstream/transport';
import { injectTraceContext } from '../shared/telemetry';

const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-language', 'content-type', 'cookie', 'user-agent'] as const;
const RELAYED_RESPONSE_HEADERS = ['content-type', 'cache-control', 'pragma', 'expires', 'vary', 'x-request-id'] as const;

/** Ory's errorGeneric body, built by the one builder the local stack uses too. */
export function oryError(code: number, reason: string, message: string, id?: string) {
  return errorBody(code, { reason, message, ...(id ? { id } : {}) });
}

/** One plain path segment: letters, digits, `_`, `-` and `=` (flow kinds, schema ids); no dot, percent sign or backslash. */
const SEGMENT = '[A-Za-z0-9_=-]+';
/**
 * The identity provider's public paths the console uses; everything else (the control plane, admin
 * APIs, the developer mailbox) is not reachable through /.ory.
 */
const PUBLIC_IDENTITY_PATHS = [
  new RegExp(`^/self-service(?:/${SEGMENT})+/?$`),
  /^\/sessions\/whoami\/?$/,
  new RegExp(`^/schemas(?:/${SEGMENT})?/?$`),
  // The console's own OAuth2 server (an application acting on the user's console account): Hydra's public
  // paths, an authorization's resumption and its sign-in step, first-party like the flows.
  new RegExp(`^/oauth2/(?:auth(?:/${SEGMENT})?|token|revoke|sessions/logout(?:/confirm)?)/?$`),
  /^\/userinfo\/?$/,
  /^\/\.well-known\/(?:openid-configuration|jwks\.json)$/,
  /^\/console\/oauth2\/login\/?$/,
];

/**
 * Judges the raw path below /.ory (before any decoding): 'invalid' when it could climb or hide a separator
 * (dot segments, encoded dots/slashes/backslashes, backslashes, empty segments), 'not_found' when it is not
 * one of the identity provider's public paths, 'public' otherwise.
 */
export function classifyOryPath(rawPath: string): 'public' | 'invalid' | 'not_found' {
  if (/%2e|%2f|%5c|\\/i.test(rawPath) || rawPath.includes('//') || rawPath.split('/').some((part) => part === '.' || part === '..')) {
    return 'invalid';
  }
  return PUBLIC_IDENTITY_PATHS.some((pattern) => pattern.test(rawPath)) ? 'public' : 'not_found';
}

/** Removes the Domain attribute so the cookie belongs to our own host (first-party flows). */
export function stripCookieDomain(setCookie: string): string {
  return setCookie
    .split(';')
    .filter((part) => !/^\s*domain\s*=/i.test(part))
    .join(';');
}

/** Upstream-absolute (or upstream-root-relative) Location → the same place under our /.ory prefix. */
export function rewriteLocation(location: string, upstreamBase: string, publicUrl: string): string {
  if (location.startsWith(upstreamBase + '/') || location === upstreamBase) {
    return `${publicUrl}/.ory${location.slice(upstreamBase.length)}`;
  }
  if (location.startsWith('/') && !location.startsWith('//')) return `/.ory${location}`;
  return location;
}

/** Reads, sent once more when the connection fails before any answer. */
const RETRIED_METHODS = new Set(['GET', 'HEAD']);

/**
 * `/.ory/*` → ORY_SDK_URL: keeps the identity provider's self-service flows and their cookies first-party.
 * Every `return_to` must point at our own origin; it is checked before anything reaches the upstream.
 */
export async function registerOryProxy(app: FastifyInstance, opts: { upstreamUrl: string }): Promise<void> {
  const { config, caches } = app.deps;
  const upstreamBase = opts.upstreamUrl.replace(/\/+$/, '');
  const upstreamOrigin = new URL(upstreamBase).origin;
  const publicUrl = new URL(config.publicUrl);
  const forwarded = { proto: publicUrl.protocol.replace(':', ''), host: publicUrl.host, prefix: '/.ory' };

  await app.register(
    async (proxy) => {
      proxy.removeAllContentTypeParsers();
      proxy.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      proxy.all('/*', (req, reply) => relay(req, reply));
    },
    { prefix: '/.ory' },
  );

  async function relay(req: FastifyRequest, reply: FastifyReply) {
    const rest = (req.url.split('?')[0] ?? '').slice('/.ory'.length) || '/';
    const kind = classifyOryPath(rest);
    if (kind === 'invalid') {
      return reply.code(400).send(oryError(400, 'Invalid path: dot segments, encoded slashes and backslashes are not allowed.', 'The request was malformed or contained invalid parameters'));
    }
    if (kind === 'not_found') {
      return reply
        .code(404)
        .send(oryError(404, 'Only the identity provider\'s public paths (/self-service/…, /sessions/whoami, /schemas, and its OAuth2 server\'s) are served under /.ory.', 'The requested resource could not be found'));
    }
    const incoming = new URL(req.url, 'http://bff.invalid');
    const foreign = [...incoming.searchParams.getAll('return_to'), ...returnToInBody(req)].find(
      (value) => safeReturnToUrl(value, config.publicOrigin) === null,
    );
    if (foreign !== undefined) {
      return reply
        .code(400)
        .send(oryError(400, `Requested return_to URL "${foreign.slice(0, 200)}" is not allowed.`, 'The request was malformed or contained invalid parameters', 'self_service_flow_return_to_forbidden'));
    }
    const returnTo = incoming.searchParams.getAll('return_to');
    if (returnTo.length > 0) {
      incoming.searchParams.delete('return_to');
      for (const value of returnTo) incoming.searchParams.append('return_to', safeReturnToUrl(value, config.publicOrigin)!);
    }
    const target = new URL(upstreamBase + rest + incoming.search);
    if (target.origin !== upstreamOrigin) return reply.code(400).send(oryError(400, 'Invalid path.', 'The request was malformed or contained invalid parameters'));

    const headers: Record<string, string> = {
      'x-forwarded-proto': forwarded.proto,
      'x-forwarded-host': forwarded.host,
      'x-forwarded-prefix': forwarded.prefix,
      'x-request-id': String(req.id),
    };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    injectTraceContext(headers);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && Buffer.isBuffer(req.body);
    let response: Response;
    let body: Buffer;
    // One deadline for the exchange, reading the whole body included.
    const signal = deadline(config.upstreamTimeoutMs);
    const send = () =>
      fetch(target, { method: req.method, headers, body: hasBody ? (req.body as unknown as BodyInit) : undefined, redirect: 'manual', signal });
    try {
      try {
        response = await send();
      } catch (error) {
        // A kept-alive connection the upstream closed just as it was reused fails before any answer: a read
        // (GET, HEAD) is sent once more on a fresh one, within the same deadline. A write is not: it may have
        // been taken.
        if (signal.aborted || !RETRIED_METHODS.has(req.method)) throw error;
        req.log.warn({ err: error, path: rest }, 'identity provider connection failed before an answer; asking once more');
        response = await send();
      }
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      const timeout = signal.aborted || (error as { name?: string }).name === 'TimeoutError';
      req.log.error({ err: error, path: rest }, 'identity provider proxy failed');
      return reply
        .code(timeout ? 504 : 502)
        .send(timeout ? oryError(504, 'The identity provider did not answer in time.', 'Gateway Timeout') : oryError(502, 'The identity provider could not be reached.', 'Bad Gateway'));
    }

    reply.code(response.status);
    for (const name of RELAYED_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) reply.header(name, value);
    }
    const location = response.headers.get('location');
    if (location) {
      const rewritten = rewriteLocation(location, upstreamBase, config.publicUrl);
      // The console's OAuth2 server sends the browser back to an application's registered redirect URI (it checks
      // that URI itself): the only answers that may leave the console.
      const toApplication = /^\/oauth2\/(?:auth|sessions\/logout)(?:\/|$)/.test(rest);
      if (!toApplication && !staysOnOrigin(rewritten, config.publicUrl)) {
        req.log.error({ path: rest, status: response.status }, 'identity provider redirected outside the console; refused');
        return reply
          .code(502)
          .send(oryError(502, 'The identity provider redirected outside the console.', 'Bad Gateway'));
      }
      reply.header('location', rewritten);
    }
    const cookies = response.headers.getSetCookie().map(stripCookieDomain);
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    if (response.status < 400 && /^\/self-service\/logout\/?$/.test(rest)) evictSession(caches, req.headers.cookie);
    return reply.send(withoutForeignReturnTo(body, response.headers.get('content-type'), config.publicOrigin));
  }
}
