import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, OryError, returnToForbidden } from './errors';
import { isAllowedReturnUrl } from './identity-settings';

/** What Kratos offers when negotiating the answer's type, in its order; HTML when nothing matches. */
const OFFERS = ['text/html', 'text/*', '*/*', 'application/json'];

/**
 * The media type an Accept header picks among Kratos' offers, weighing q-values: the highest q wins,
 * an exact type beats `type/*`, which beats `*\/*`, and q=0 excludes.
 */
export function negotiate(accept: string | undefined): string {
  const specs = (accept ?? '')
    .split(',')
    .map((part) => {
      const [value = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => /^q=/i.test(p));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { value: value.toLowerCase(), q: Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0 };
    })
    .filter((s) => s.value !== '');
  let best = 'text/html';
  let bestQ = -1;
  let bestWild = 3;
  for (const offer of OFFERS) {
    for (const spec of specs) {
      if (spec.q === 0 || spec.q < bestQ) continue;
      const wild = spec.value === '*/*' ? 2 : spec.value.endsWith('/*') ? 1 : 0;
      const matches = wild === 2 || (wild === 1 ? offer.startsWith(spec.value.slice(0, -1)) : spec.value === offer);
      if (matches && (spec.q > bestQ || bestWild > wild)) {
        best = offer;
        bestQ = spec.q;
        bestWild = wild;
      }
    }
  }
  return best;
}

/** Kratos' rule: JSON answers when negotiation picks JSON or the body is JSON. */
export function isJsonRequest(req: FastifyRequest): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return negotiate(req.headers.accept) === 'application/json' || type === 'application/json';
}

const firstValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();

/**
 * The public base URL a proxy (the BFF's /.ory) announces with X-Forwarded-Proto, -Host and -Prefix:
 * `${proto}://${host}${prefix}`, the address its clients reach the tenant's API at; undefined without them.
 */
export function forwardedBase(req: FastifyRequest): string | undefined {
  const proto = firstValue(req.headers['x-forwarded-proto']);
  const host = firstValue(req.headers['x-forwarded-host']);
  const prefix = firstValue(req.headers['x-forwarded-prefix']);
  if (proto && host && prefix !== undefined && /^https?$/.test(proto) && /^[A-Za-z0-9.\-:[\]]+$/.test(host)) {
    const cleanPrefix = prefix === '' || prefix === '/' ? '' : `/${prefix.replace(/^\/+|\/+$/g, '')}`;
    return `${proto}://${host}${cleanPrefix}`;
  }
  return undefined;
}

/**
 * Validates a `return_to`: relative paths resolve against uiUrl; absolute URLs must share uiUrl's
 * origin or match the tenant's `selfservice.allowed_return_urls`. Returns the absolute URL, undefined when none was given, or throws Ory's 400.
 */
export function checkReturnTo(returnTo: unknown, uiUrl: string, allowedUrls: readonly string[] = []): string | undefined {
  if (returnTo === undefined || returnTo === null || returnTo === '') return undefined;
  if (typeof returnTo !== 'string') throw returnToForbidden(String(returnTo));
  let url: URL;
  try {
    url = new URL(returnTo, uiUrl);
  } catch {
    throw returnToForbidden(returnTo);
  }
  if (!/^https?:$/.test(url.protocol)) throw returnToForbidden(returnTo);
  if (url.origin !== new URL(uiUrl).origin && !isAllowedReturnUrl(url, allowedUrls)) throw returnToForbidden(returnTo);
  return url.toString();
}

/** Browser answer: 303 See Other to `location`. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}

/** `${uiUrl}${path}` with query parameters (undefined ones skipped); uiUrl may have a path of its own. */
export function uiLink(uiUrl: string, path: string, query: Record<string, string | undefined> = {}): string {
  const url = new URL(`${uiUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** Reads a single query parameter as a string. */
export function queryParam(req: FastifyRequest, name: string): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** 422 browser_location_change_required, what Kratos answers AJAX callers that must navigate. */
export function browserLocationChange(to: string): OryError {
  return new OryError(422, {
    id: 'browser_location_change_required',
    reason: `In order to complete this flow please redirect the browser to: ${to}`,
    message: 'browser location change required',
    extra: { redirect_browser_to: to },
  });
}

export { errorBody };

/**
 * A query parameter as Kratos reads it: the first value when it is repeated, absent when empty of any.
 * Route schemas declare their parameters with it (`z.looseObject({ return_to: queryValue })`): parameters
 * a flow does not name (`refresh`, `aal`, `via`, …) stay readable to it.
 */
export const queryValue = z
  .union([z.string().max(4096, { error: 'must be at most 4096 characters' }), z.array(z.string().max(4096)).max(16)])
  .optional()
  .transform((v) => (Array.isArray(v) ? v[0] : v));

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Only loopback clients talking to the stack directly, never through a proxy. */
export function assertLoopback(req: FastifyRequest): void {
  const remote = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
  // A request relayed by a proxy (e.g. the console's /.ory pass-through) may come from anywhere.
  const proxied = Boolean(req.headers['x-forwarded-host'] || req.headers['x-forwarded-prefix'] || req.headers.forwarded);
  if (proxied || !LOOPBACK.test(remote) || hops.some((h) => !LOOPBACK.test(h))) {
    throw new OryError(403, { reason: 'The local mailbox is only available to clients on this machine.' });
  }
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
