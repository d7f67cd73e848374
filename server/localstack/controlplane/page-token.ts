import { z } from 'zod';
import { badRequest } from './errors';
import type { WorkspaceCursor } from './store/workspaces';

const cursorSchema = z.object({ c: z.iso.datetime(), i: z.uuid() });

/** Opaque page tokens: base64url of the last row's (created_at, id). */
export function encodePageToken(cursor: WorkspaceCursor): string {
  return Buffer.from(JSON.stringify({ c: cursor.createdAt, i: cursor.id })).toString('base64url');
}

export function decodePageToken(token: string | undefined): WorkspaceCursor | null {
  if (token === undefined) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = cursorSchema.safeParse(raw);
  if (!parsed.success) throw badRequest('The page_token is invalid; pass the next_page_token of a previous answer.');
  return { createdAt: parsed.data.c, id: parsed.data.i };
}
