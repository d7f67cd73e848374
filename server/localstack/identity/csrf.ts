import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfViolation } from './errors';

/** Name of the HttpOnly anti-CSRF cookie (Kratos derives it from the base URL as well). */
export function csrfCookieName(uiUrl: string): string {
  return `csrf_token_${createHash('sha256').update(uiUrl).digest('hex').slice(0, 10)}`;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Reuses the caller's CSRF cookie or mints one; (re)sets the cookie and returns its value. */
export function issueCsrfToken(req: FastifyRequest, reply: FastifyReply, uiUrl: string, secure: boolean): string {
  const name = csrfCookieName(uiUrl);
  const current = req.cookies[name];
  const token = current && TOKEN.test(current) ? current : randomBytes(32).toString('base64url');
  reply.setCookie(name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: 365 * 24 * 3600,
  });
  return token;
}

/** Double submit: the body's `csrf_token` (or X-CSRF-Token) must equal the CSRF cookie. */
export function checkCsrf(req: FastifyRequest, bodyToken: unknown, uiUrl: string): void {
  const cookie = req.cookies[csrfCookieName(uiUrl)];
  const header = req.headers['x-csrf-token'];
  const sent = typeof bodyToken === 'string' && bodyToken !== '' ? bodyToken : typeof header === 'string' ? header : '';
  if (!cookie || !sent) throw csrfViolation();
  const a = Buffer.from(cookie);
  const b = Buffer.from(sent);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw csrfViolation();
}
