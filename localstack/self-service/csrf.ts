import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfViolation } from '../kernel/errors';
import type { Tenant } from '../kernel/tenant';

/** Name of the HttpOnly anti-CSRF cookie (Kratos derives it from the base URL as well). */
export function csrfCookieName(uiUrl: string): string {
  return `csrf_token_${createHash('sha256').update(uiUrl).digest('hex').slice(0, 10)}`;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Reuses the caller's CSRF cookie of the tenant or mints one; (re)sets the cookie (on the tenant's path) and returns its value. */
export function issueCsrfToken(req: FastifyRequest, reply: FastifyReply, tenant: Tenant, secure: boolean): string {
  const name = csrfCookieName(tenant.uiUrl);
  const current = req.cookies[name];
  const token = current && TOKEN.test(current) ? current : randomBytes(32).toString('base64url');
  reply.setCookie(name, token, {
    path: tenant.cookiePath,
    ...(tenant.cookieDomain ? { domain: tenant.cookieDomain } : {}),
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: 365 * 24 * 3600,
  });
  return token;
}

/** Double submit: the body's `csrf_token` (or X-CSRF-Token) must equal the CSRF cookie. */
export function checkCsrf(req: FastifyRequest, bodyToken: unknown, tenant: Tenant): void {
  const cookie = req.cookies[csrfCookieName(tenant.uiUrl)];
  const header = req.headers['x-csrf-token'];
  const sent = typeof bodyToken === 'string' && bodyToken !== '' ? bodyToken : typeof header === 'string' ? header : '';
  if (!cookie) throw csrfViolation(req.headers.cookie ? 'cookieMissing' : 'noCookie');
  if (!sent || !same(cookie, sent)) throw csrfViolation();
}

/** A browser flow is readable only with the anti-CSRF cookie it was issued for (Kratos: 403 otherwise). */
export function checkFlowCsrf(req: FastifyRequest, flowToken: string, tenant: Tenant): void {
  const cookie = req.cookies[csrfCookieName(tenant.uiUrl)];
  if (!cookie) throw csrfViolation(req.headers.cookie ? 'cookieMissing' : 'noCookie');
  if (!same(cookie, flowToken)) throw csrfViolation();
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
