import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The prefixes Ory gives its keys: project keys for a project's APIs, workspace keys for the control plane. */
export const API_KEY_PREFIX = { project: 'ory_pat_', workspace: 'ory_wak_' } as const;
export type ApiKeyKind = keyof typeof API_KEY_PREFIX;

/** How many trailing characters of a key are kept (and shown) to tell keys apart. */
const SHOWN_CHARACTERS = 4;

/** The shape of a key this server issues: a prefix and 43 base64url characters (32 random bytes). */
const KEY_PATTERN = /^ory_(pat|wak)_[A-Za-z0-9_-]{43}$/;

export interface NewSecret {
  /** The key itself, returned once to its creator and never stored. */
  value: string;
  hash: string;
  lastCharacters: string;
}

export const hashApiKey = (value: string): string => createHash('sha256').update(value).digest('hex');

export function newSecret(kind: ApiKeyKind): NewSecret {
  const value = `${API_KEY_PREFIX[kind]}${randomBytes(32).toString('base64url')}`;
  return { value, hash: hashApiKey(value), lastCharacters: value.slice(-SHOWN_CHARACTERS) };
}

/** The kind of a well-formed key, or null for anything else (so a malformed value never reaches the database). */
export function apiKeyKind(value: string): ApiKeyKind | null {
  const match = KEY_PATTERN.exec(value);
  if (!match) return null;
  return match[1] === 'pat' ? 'project' : 'workspace';
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
