import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, OryHttpError, returnToForbidden } from './errors';

/** Kratos' rule: JSON answers when the client accepts JSON or sent a JSON body. */
export function isJsonRequest(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  const type = req.headers['content-type'] ?? '';
  return accept.includes('application/json') || type.includes('application/json');
}

const firstValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();

/**
 * The public base URL flows point at: `${proto}://${host}${prefix}` when a proxy (the BFF's /.ory)
 * set X-Forwarded-Proto, -Host and -Prefix, else the local stack's own URL.
 */
export function publicBase(req: FastifyRequest, ownUrl: string): string {
  const proto = firstValue(req.headers['x-forwarded-proto']);
  const host = firstValue(req.headers['x-forwarded-host']);
  const prefix = firstValue(req.headers['x-forwarded-prefix']);
  if (proto && host && prefix !== undefined && /^https?$/.test(proto) && /^[A-Za-z0-9.\-:[\]]+$/.test(host)) {
    const cleanPrefix = prefix === '' || prefix === '/' ? '' : `/${prefix.replace(/^\/+|\/+$/g, '')}`;
    return `${proto}://${host}${cleanPrefix}`;
  }
  return ownUrl.replace(/\/+$/, '');
}

/** The full URL of this request as the client sees it. */
export function requestUrl(req: FastifyRequest, ownUrl: string): string {
  return `${publicBase(req, ownUrl)}${req.url}`;
}

/**
 * Validates a `return_to`: relative paths resolve against uiUrl; absolute URLs must share uiUrl's
 * origin. Returns the absolute URL, undefined when none was given, or throws Ory's 400.
 */
export function checkReturnTo(returnTo: unknown, uiUrl: string): string | undefined {
  if (returnTo === undefined || returnTo === null || returnTo === '') return undefined;
  if (typeof returnTo !== 'string') throw returnToForbidden(String(returnTo));
  let url: URL;
  try {
    url = new URL(returnTo, uiUrl);
  } catch {
    throw returnToForbidden(returnTo);
  }
  if (url.origin !== new URL(uiUrl).origin || (!/^https?:$/.test(url.protocol))) throw returnToForbidden(returnTo);
  return url.toString();
}

/** Browser answer: 303 See Other to `location`. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}

/** `${uiUrl}${path}` with query parameters (undefined ones skipped). */
export function uiLink(uiUrl: string, path: string, query: Record<string, string | undefined> = {}): string {
  const url = new URL(path, uiUrl);
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
export function browserLocationChange(to: string): OryHttpError {
  return new OryHttpError(422, {
    id: 'browser_location_change_required',
    reason: `In order to complete this flow please redirect the browser to: ${to}`,
    message: 'browser location change required',
    extra: { redirect_browser_to: to },
  });
}

export { errorBody };
