import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';

/** The paths below a project's base that oidc-provider answers (Hydra's public API). */
export const PUBLIC_PATHS = ['/oauth2/*', '/userinfo', '/.well-known/openid-configuration', '/.well-known/jwks.json'];

/**
 * Serves a project's authorization server on Hydra's public paths of `scope` (registered under the project's
 * base). oidc-provider reads the request body itself, so these routes leave it unread, and it learns its mount
 * path the way Express tells it: `originalUrl` is the whole path, `url` the part below the base. Give it a scope
 * of its own: it takes over the scope's body parsing.
 */
export function servePublicOAuth2(
  scope: FastifyInstance,
  providerFor: (req: FastifyRequest) => Promise<{ provider: Provider; basePath: string }>,
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
    const { provider, basePath } = await providerFor(req);
    const raw = req.raw as typeof req.raw & { originalUrl?: string };
    const url = raw.url ?? '/';
    raw.originalUrl = url;
    raw.url = url.startsWith(basePath) ? url.slice(basePath.length) || '/' : url;
    reply.hijack();
    await callbackOf(provider)(raw, reply.raw);
  };
  for (const path of PUBLIC_PATHS) scope.all(path, handle);
}
