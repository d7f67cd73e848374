import { z } from 'zod';

/**
 * Opaque keyset page tokens shared by every paged list of the local stack (control plane and data plane):
 * base64url of the last row's key, `(created_at, id)` or `id` alone.
 */
export interface Cursor {
  id: string;
  createdAt?: string;
}

const cursorSchema = z.object({ i: z.uuid(), c: z.iso.datetime().optional() });

export function encodePageToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ i: cursor.id, ...(cursor.createdAt ? { c: cursor.createdAt } : {}) })).toString('base64url');
}

/**
 * The cursor of a page token: null when there is none, `'invalid'` when the token is not one this server
 * gave out (or lacks the time a `withTime` list needs). Each area answers `'invalid'` with its own 400.
 */
export function readPageToken(token: string | undefined, withTime: boolean): Cursor | null | 'invalid' {
  if (token === undefined || token === '') return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return 'invalid';
  }
  const parsed = cursorSchema.safeParse(raw);
  if (!parsed.success || (withTime && !parsed.data.c)) return 'invalid';
  return { id: parsed.data.i, ...(parsed.data.c ? { createdAt: parsed.data.c } : {}) };
}
