import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * The continuity cookies of the redirect flows (social sign-in, SAML sign-in and logout): what the browser must
 * bring back to the endpoint the other site sends it to, as JSON in base64url.
 */

export const encodeStateCookie = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Cookie `name` read back, when it is JSON with a string in each of `fields`; an unreadable or partial cookie is a missing one. */
export function readStateCookie<T extends Record<K, string>, K extends string = Extract<keyof T, string>>(req: FastifyRequest, name: string, fields: readonly K[]): T | null {
  const raw = req.cookies[name];
  if (!raw) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown> | null;
    if (parsed !== null && typeof parsed === 'object' && fields.every((f) => typeof parsed[f] === 'string')) return parsed as T;
  } catch {
    // An unreadable cookie is a missing one.
  }
  return null;
}

/**
 * Sets a continuity cookie that another site's POST back must carry (SAML's HTTP-POST binding): over HTTPS that
 * cross-site POST sends only a SameSite=None cookie; over plain HTTP (local development) Lax is the most allowed.
 */
export function setPostBackCookie(reply: FastifyReply, name: string, value: object, opts: { path: string; secure: boolean; maxAge: number }): void {
  reply.setCookie(name, encodeStateCookie(value), { path: opts.path, httpOnly: true, sameSite: opts.secure ? 'none' : 'lax', secure: opts.secure, maxAge: opts.maxAge });
}
