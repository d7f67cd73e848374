import { hash, type Options } from '@node-rs/argon2';
import { compareHash } from './password-hashes';

import type { HashOptions } from '../kernel/hash-options';

export { DEFAULT_HASH_OPTIONS, type HashOptions } from '../kernel/hash-options';

/** `@node-rs/argon2`'s Algorithm.Argon2id (a const enum, so spelled out here). */
const ARGON2ID = 2;

export function hashPassword(password: string, opts: HashOptions): Promise<string> {
  const options: Options = { ...opts, algorithm: ARGON2ID };
  return hash(password, options);
}

/** Whether `password` matches a stored hash: the stack's own argon2id, or any format an import may bring. */
export function verifyPassword(hashed: string, password: string): Promise<boolean> {
  return compareHash(hashed, password);
}
