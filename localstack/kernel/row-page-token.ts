import { encodePageToken as encode, readPageToken } from './page-token';
import { badRequest } from './errors';

/** Where a control-plane page ends: the last row's (created_at, id). */
export interface WorkspaceCursor {
  createdAt: string;
  id: string;
}

/** Control-plane page tokens: the shared codec (`page-token.ts`) over the last row's (created_at, id). */
export function encodePageToken(cursor: WorkspaceCursor): string {
  return encode({ id: cursor.id, createdAt: cursor.createdAt });
}

export function decodePageToken(token: string | undefined): WorkspaceCursor | null {
  if (token === undefined) return null;
  const cursor = readPageToken(token, true);
  if (cursor === 'invalid' || cursor === null || !cursor.createdAt) {
    throw badRequest('The page_token is invalid; pass the next_page_token of a previous answer.');
  }
  return { createdAt: cursor.createdAt, id: cursor.id };
}
