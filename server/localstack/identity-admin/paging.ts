import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { badRequest } from './errors';

/** A keyset position: the last row of a page, by (created_at, id) or by id alone. */
export interface Cursor {
  id: string;
  createdAt?: string;
}

const cursorSchema = z.object({ i: z.uuid(), c: z.iso.datetime().optional() });

/** Opaque page tokens: base64url of the last row's key. */
export function encodePageToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ i: cursor.id, ...(cursor.createdAt ? { c: cursor.createdAt } : {}) })).toString('base64url');
}

/** The cursor of a page token; 400 naming page_token when it is not one this server gave out. */
export function decodePageToken(token: string | undefined, withTime: boolean): Cursor | null {
  if (token === undefined || token === '') return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = cursorSchema.safeParse(raw);
  if (!parsed.success || (withTime && !parsed.data.c)) {
    throw badRequest('The page_token is invalid: pass the page_token of a rel="next" Link of a previous answer.');
  }
  return { id: parsed.data.i, ...(parsed.data.c ? { createdAt: parsed.data.c } : {}) };
}

/**
 * Sets Kratos' keyset pagination header: `rel="first"` always, `rel="next"` when there are more rows.
 * Links keep the request's path and filters and replace page_size and page_token.
 */
export function setLinkHeader(req: FastifyRequest, reply: FastifyReply, pageSize: number, next: Cursor | null): void {
  const [path = '', search = ''] = req.url.split('?', 2);
  const link = (token: string | null) => {
    const params = new URLSearchParams(search);
    params.delete('page_token');
    params.set('page_size', String(pageSize));
    if (token) params.set('page_token', token);
    return `<${path}?${params.toString()}>`;
  };
  const links = [`${link(null)}; rel="first"`];
  if (next) links.push(`${link(encodePageToken(next))}; rel="next"`);
  reply.header('link', links.join(','));
}

/** `page_size` between 1 and `max` (default 250), as a query parameter; a 400 names it otherwise. */
export const pageSizeParam = (max: number) =>
  z.coerce
    .number({ error: `page_size must be a whole number from 1 to ${max}` })
    .int({ error: `page_size must be a whole number from 1 to ${max}` })
    .min(1, { error: `page_size must be a whole number from 1 to ${max}` })
    .max(max, { error: `page_size must be at most ${max}` })
    .default(250);

/**
 * A timestamp column cut to milliseconds: page tokens carry JavaScript dates, so keyset order and
 * comparison use the same precision and a row written with microseconds is never skipped.
 */
export const msOf = (column: AnyColumn): SQL => sql`date_trunc('milliseconds', ${column})`;
