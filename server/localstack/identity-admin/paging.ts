import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { encodePageToken, readPageToken, type Cursor } from '../page-token';
import { badRequest } from './errors';

export { encodePageToken, type Cursor } from '../page-token';

/** The cursor of a page token; 400 naming page_token when it is not one this server gave out. */
export function decodePageToken(token: string | undefined, withTime: boolean): Cursor | null {
  const cursor = readPageToken(token, withTime);
  if (cursor === 'invalid') {
    throw badRequest('The page_token is invalid: pass the page_token of a rel="next" Link of a previous answer.');
  }
  return cursor;
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
