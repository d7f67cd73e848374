import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { encodePageToken, readPageToken, type Cursor } from './page-token';
import { badRequest } from './errors';

export { encodePageToken, type Cursor } from './page-token';

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

/**
 * Kratos' offset pagination headers (ory/x pagination.HeaderWithFormatter): `X-Total-Count`, and a Link
 * header whose first/next/prev/last entries `format` builds from a page size and an offset.
 */
export function setOffsetPagingHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  total: number,
  page: number,
  perPage: number,
  format: (params: URLSearchParams, size: number, offset: number) => void,
): void {
  const size = Math.max(perPage, 1);
  const offset = page * size;
  const lastOffset = total % size === 0 ? total - size : Math.floor(total / size) * size;
  const [path = '', search = ''] = req.url.split('?', 2);
  const link = (rel: string, limit: number, at: number) => {
    const params = new URLSearchParams(search);
    format(params, limit, at);
    params.sort();
    return `<${path}?${params.toString()}>; rel="${rel}"`;
  };
  const pageOf = (at: number) => Math.trunc(at / size) * size;
  reply.header('x-total-count', String(total));
  let links: string[];
  if (offset >= lastOffset) {
    if (total === 0) links = [link('first', size, 0), link('next', size, pageOf(offset) + size), link('prev', size, pageOf(offset) - size)];
    else if (total <= size) links = [link('first', total, 0)];
    else links = [link('first', size, 0), link('prev', size, lastOffset - size)];
  } else if (offset < size) {
    links = [link('next', size, size), link('last', size, lastOffset)];
  } else {
    links = [link('first', size, 0), link('next', size, pageOf(offset) + size), link('prev', size, pageOf(offset) - size), link('last', size, lastOffset)];
  }
  reply.header('link', links.join(','));
}

/** Go's strconv.ParseInt of a query value: the integer, or null for what Go would not read. */
export function goInt(value: string | undefined): number | null {
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** Kratos' v2 offset page token (ory/x tokenpagination). */
export const encodeOffsetToken = (offset: number) => Buffer.from(`{"offset":"${offset}","v":2}`).toString('base64url');

export function decodeOffsetToken(token: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { offset?: unknown };
    const offset = Number(parsed.offset);
    return Number.isSafeInteger(offset) ? offset : 0;
  } catch {
    return 0;
  }
}
