import { createHash, createHmac, pbkdf2, scrypt, timingSafeEqual, type BinaryLike } from 'node:crypto';
import { promisify } from 'node:util';
import { verify as argon2Verify } from '@node-rs/argon2';
import md5Crypt from 'apache-md5';
import bcrypt from 'bcryptjs';
import { FirebaseScrypt } from 'firebase-scrypt';
import { verify as shaCryptVerify } from 'unixcrypt';

/**
 * The password hash formats Kratos accepts for import (`credentials.password.config.hashed_password`) and
 * compares at login, with the cost bounds it enforces on them (hash/hash_limits.go): a hash that names its
 * own cost must not make one sign-in take seconds of CPU or a gigabyte of memory.
 */

/** Kratos' reasons for a refused `hashed_password` (identity/handler_import.go). */
export const HASH_UNKNOWN_FORMAT = 'The imported password does not match any known hash format.';
export const HASH_OUT_OF_BOUNDS =
  'The imported password hash declares cost parameters that exceed the bounds enforced by Ory. ' +
  'Re-hash the password with a more conservative configuration before importing.';
export const HASH_UNPARSABLE = 'The imported password hash could not be parsed.';
/** Ours: Firebase's scrypt variant as the maintained library computes it (p = 1, at most 32 MiB). */
export const HASH_FIRESCRYPT_UNSUPPORTED =
  'The imported firescrypt hash needs p=1 and at most 32 MiB of memory (128 \u00d7 2^ln \u00d7 r bytes), as Firebase exports them; re-export it with Firebase\u2019s parameters.';

/** Kratos' bounds (hash/hash_limits.go). */
export const HASH_LIMITS = {
  argon2MemoryKiB: 1 << 20,
  argon2Iterations: 10,
  argon2Parallelism: 16,
  pbkdf2Iterations: 10_000_000,
  bcryptCost: 15,
  scryptN: 1 << 17,
  scryptR: 8,
  scryptP: 10,
  firescryptLogN: 17,
} as const;

/** Node's default scrypt memory ceiling, which firebase-scrypt does not raise. */
const FIRESCRYPT_MAX_MEMORY = 32 * 1024 * 1024;
const BCRYPT_MAX_PASSWORD_BYTES = 72;
const BCRYPT_HASH_LENGTH = 59;

class HashRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
const outOfBounds = () => new HashRefused(HASH_OUT_OF_BOUNDS);
const unparsable = () => new HashRefused(HASH_UNPARSABLE);

/** A decimal the way Go's `%d` into a uint32 reads it; unparsable otherwise. */
function unsigned(text: string | undefined): number {
  if (text === undefined || !/^\+?\d+$/.test(text)) throw unparsable();
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value > 2 ** 32 - 1) throw unparsable();
  return value;
}

const inRange = (value: number, max: number) => {
  if (value === 0 || value > max) throw outOfBounds();
};

/** Go's `base64.(Raw)StdEncoding.Strict()`: the text is exactly how its bytes encode. */
function strictBase64(text: string | undefined, padded: boolean): Buffer {
  if (text === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw unparsable();
  const bytes = Buffer.from(text, 'base64');
  const again = bytes.toString('base64');
  if ((padded ? again : again.replace(/=+$/, '')) !== text) throw unparsable();
  return bytes;
}

/** Go's lenient `base64.StdEncoding` (padding required, trailing bits ignored). */
function base64(text: string | undefined): Buffer {
  if (text === undefined || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) throw unparsable();
  return Buffer.from(text, 'base64');
}

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** `pf` with `{SALT}` and `{PASSWORD}` replaced in one pass, as bytes (Kratos' salting format). */
function saltingFormat(pf: Buffer, salt: Buffer, password: string): Buffer {
  return Buffer.concat(
    pf
      .toString('latin1')
      .split(/(\{SALT\}|\{PASSWORD\})/)
      .map((part) => (part === '{SALT}' ? salt : part === '{PASSWORD}' ? Buffer.from(password) : Buffer.from(part, 'latin1'))),
  );
}

/** `key=value,…` parameters in the order given, each an unsigned decimal. */
function params(text: string | undefined, names: string[]): number[] {
  const values = (text ?? '').split(',');
  if (values.length !== names.length) throw unparsable();
  return names.map((name, i) => {
    const [key, value] = (values[i] ?? '').split('=', 2);
    if (key !== name) throw unparsable();
    return unsigned(value);
  });
}

interface HashFormat {
  is: RegExp;
  /** Throws HashRefused for a hash Kratos would not store; returns what compare needs. */
  check?: (hash: string) => void;
  compare: (hash: string, password: string) => Promise<boolean>;
}

function checkArgon2(hash: string): void {
  const parts = hash.split('$');
  if (parts.length !== 6) throw unparsable();
  if (!/^v=\+?\d+$/.test(parts[2] ?? '') || Number(parts[2]!.slice(2)) !== 19) throw unparsable();
  const [m, t, p] = params(parts[3], ['m', 't', 'p']);
  // Go reads p into a uint8.
  if (p! > 255) throw unparsable();
  inRange(m!, HASH_LIMITS.argon2MemoryKiB);
  inRange(t!, HASH_LIMITS.argon2Iterations);
  inRange(p!, HASH_LIMITS.argon2Parallelism);
  strictBase64(parts[4], false);
  strictBase64(parts[5], false);
}

function decodePbkdf2(hash: string) {
  const parts = hash.split('$');
  if (parts.length !== 5) throw unparsable();
  const algorithm = (parts[1] ?? '').split('-', 2)[1] ?? '';
  const [iterations] = params(parts[2], ['i', 'l']);
  inRange(iterations!, HASH_LIMITS.pbkdf2Iterations);
  return { algorithm, iterations: iterations!, salt: strictBase64(parts[3], false), key: strictBase64(parts[4], false) };
}

/** Kratos' digests by name: sha224 and sha384 are SHA-3 there, for hashes imported long ago. */
const PBKDF2_DIGESTS: Record<string, string> = { sha1: 'sha1', sha224: 'sha3-224', sha256: 'sha256', sha384: 'sha3-384', sha512: 'sha512' };

function decodeScrypt(hash: string) {
  const parts = hash.split('$');
  if (parts.length !== 5) throw unparsable();
  // Kratos' `ln` of a plain scrypt hash is N itself.
  const [n, r, p] = params(parts[2], ['ln', 'r', 'p']);
  inRange(n!, HASH_LIMITS.scryptN);
  inRange(r!, HASH_LIMITS.scryptR);
  inRange(p!, HASH_LIMITS.scryptP);
  return { n: n!, r: r!, p: p!, salt: strictBase64(parts[3], true), key: strictBase64(parts[4], true) };
}

function decodeFirescrypt(hash: string) {
  const parts = hash.split('$');
  if (parts.length !== 7) throw unparsable();
  const [logN, r, p] = params(parts[2], ['ln', 'r', 'p']);
  if (logN! > HASH_LIMITS.firescryptLogN) throw outOfBounds();
  inRange(r!, HASH_LIMITS.scryptR);
  inRange(p!, HASH_LIMITS.scryptP);
  for (const i of [3, 4, 5, 6]) strictBase64(parts[i], true);
  if (p !== 1 || 128 * 2 ** logN! * r! > FIRESCRYPT_MAX_MEMORY) throw new HashRefused(HASH_FIRESCRYPT_UNSUPPORTED);
  return { logN: logN!, r: r!, salt: parts[3]!, hash: parts[4]!, separator: parts[5]!, signerKey: parts[6]! };
}

function decodeSsha(hash: string) {
  const kind = /^\{(SSHA(?:256|512)?)\}/.exec(hash)?.[1];
  const shape = { SSHA: ['sha1', 20], SSHA256: ['sha256', 32], SSHA512: ['sha512', 64] } as const;
  const found = kind ? shape[kind as keyof typeof shape] : undefined;
  if (!kind || !found) throw unparsable();
  const decoded = base64(hash.slice(kind.length + 2));
  const [digest, length] = found;
  if (decoded.length < length + 1) throw unparsable();
  return { digest, hash: decoded.subarray(0, length), salt: decoded.subarray(length) };
}

function decodeSha(hash: string) {
  const parts = hash.split('$');
  if (parts.length !== 5 || !(parts[2] ?? '').startsWith('pf=')) throw unparsable();
  return { digest: parts[1] ?? '', pf: strictBase64(parts[2]!.slice(3), true), salt: strictBase64(parts[3], true), hash: strictBase64(parts[4], true) };
}

function decodeMd5(hash: string) {
  const parts = hash.split('$');
  if (parts.length === 3) return { hash: strictBase64(parts[2], true) };
  if (parts.length !== 5 || !(parts[2] ?? '').startsWith('pf=')) throw unparsable();
  return { pf: strictBase64(parts[2]!.slice(3), true), salt: strictBase64(parts[3], true), hash: strictBase64(parts[4], true) };
}

function decodeHmac(hash: string) {
  const parts = hash.split('$');
  if (parts.length !== 4) throw unparsable();
  return { digest: (parts[1] ?? '').slice('hmac-'.length), hash: strictBase64(parts[2], true), key: strictBase64(parts[3], true) };
}

const digest = (algorithm: string, data: BinaryLike) => createHash(algorithm).update(data).digest();
const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (password: BinaryLike, salt: BinaryLike, keylen: number, options: object) => Promise<Buffer>;

/** `$md5-crypt$…`, `$sha256-crypt$…` and `$sha512-crypt$…` are the crypt(3) `$1$`, `$5$` and `$6$` forms renamed. */
const crypt = (prefix: string, as: string) => (hash: string) => `${as}${hash.slice(prefix.length)}`;

/** In Kratos' order of detection (hash/hash_comparator.go). */
const FORMATS: HashFormat[] = [
  {
    is: /^\$md5-crypt\$/,
    compare: async (hash, password) => {
      const classic = crypt('$md5-crypt', '$1')(hash);
      return sameBytes(Buffer.from(md5Crypt(password, classic)), Buffer.from(classic));
    },
  },
  {
    is: /^\$2[abzy]?\$/,
    check: (hash) => {
      // Go's bcrypt.Cost: the whole 59 characters, a cost from 4 to 31.
      const cost = /^\$2[abzy]?\$(\d{2})\$/.exec(hash)?.[1];
      if (cost === undefined || hash.length < BCRYPT_HASH_LENGTH || Number(cost) < 4 || Number(cost) > 31) throw unparsable();
      if (Number(cost) > HASH_LIMITS.bcryptCost) throw outOfBounds();
    },
    compare: async (hash, password) => Buffer.byteLength(password) <= BCRYPT_MAX_PASSWORD_BYTES && bcrypt.compare(password, hash),
  },
  { is: /^\$sha256-crypt\$/, compare: async (hash, password) => shaCryptVerify(password, crypt('$sha256-crypt', '$5')(hash)) },
  { is: /^\$sha512-crypt\$/, compare: async (hash, password) => shaCryptVerify(password, crypt('$sha512-crypt', '$6')(hash)) },
  { is: /^\$argon2id\$/, check: checkArgon2, compare: (hash, password) => argon2Verify(hash, password) },
  { is: /^\$argon2i\$/, check: checkArgon2, compare: (hash, password) => argon2Verify(hash, password) },
  {
    is: /^\$pbkdf2-sha[0-9]{1,3}\$/,
    check: decodePbkdf2,
    compare: async (hash, password) => {
      const p = decodePbkdf2(hash);
      return sameBytes(await pbkdf2Async(password, p.salt, p.iterations, p.key.length, PBKDF2_DIGESTS[p.algorithm] ?? 'sha256'), p.key);
    },
  },
  {
    is: /^\$scrypt\$/,
    check: decodeScrypt,
    compare: async (hash, password) => {
      const p = decodeScrypt(hash);
      const derived = await scryptAsync(password, p.salt, p.key.length, { N: p.n, r: p.r, p: p.p, maxmem: 256 * p.n * p.r + 1024 * 1024 });
      return sameBytes(derived, p.key);
    },
  },
  {
    is: /^\{SSHA(256|512)?\}/,
    check: decodeSsha,
    compare: async (hash, password) => {
      const p = decodeSsha(hash);
      return sameBytes(digest(p.digest, Buffer.concat([Buffer.from(password), p.salt])), p.hash);
    },
  },
  {
    is: /^\$sha(1|256|512)\$/,
    check: decodeSha,
    compare: async (hash, password) => {
      const p = decodeSha(hash);
      return sameBytes(digest(p.digest, saltingFormat(p.pf, p.salt, password)), p.hash);
    },
  },
  {
    is: /^\$firescrypt\$/,
    check: decodeFirescrypt,
    compare: async (hash, password) => {
      const p = decodeFirescrypt(hash);
      const firebase = new FirebaseScrypt({ memCost: p.logN, rounds: p.r, saltSeparator: p.separator, signerKey: p.signerKey });
      return password !== '' && firebase.verify(password, p.salt, p.hash);
    },
  },
  {
    is: /^\$md5\$/,
    check: decodeMd5,
    compare: async (hash, password) => {
      const p = decodeMd5(hash);
      const input = p.pf && p.salt ? saltingFormat(p.pf, p.salt, password) : Buffer.from(password);
      return sameBytes(digest('md5', input), p.hash);
    },
  },
  {
    is: /^\$hmac-(md4|md5|sha1|sha224|sha256|sha384|sha512)\$/,
    check: decodeHmac,
    compare: async (hash, password) => {
      const p = decodeHmac(hash);
      const mac = createHmac(p.digest, p.key).update(password).digest('hex');
      return sameBytes(Buffer.from(mac), p.hash);
    },
  },
];

const formatOf = (hash: string) => FORMATS.find((f) => f.is.test(hash));

/**
 * Why Kratos would refuse to import `hash` (one of the reasons above), or null when it may be stored:
 * an unknown format, cost parameters beyond Kratos' bounds, or parameters that do not parse.
 */
export function importedHashProblem(hash: string): string | null {
  const format = formatOf(hash);
  if (!format) return HASH_UNKNOWN_FORMAT;
  try {
    format.check?.(hash);
    return null;
  } catch (err) {
    if (err instanceof HashRefused) return err.reason;
    return HASH_UNPARSABLE;
  }
}

/** Whether `password` matches a stored hash of any supported format; a hash out of bounds never matches. */
export async function compareHash(hash: string, password: string): Promise<boolean> {
  const format = formatOf(hash);
  if (!format || importedHashProblem(hash) !== null) return false;
  try {
    return await format.compare(hash, password);
  } catch {
    return false;
  }
}
