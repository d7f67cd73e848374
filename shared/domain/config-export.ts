/**
 * A project's configuration as a file: exported with every secret redacted, imported only with each redacted
 * secret given again (by the JSON pointer the export names). Pure functions, shared by the BFF and its tests.
 */

export const REDACTED_SECRET = '********';
export const EXPORT_FORMAT = 'ory-console-project-config';

/** Keys whose string values are secrets wherever they sit (social sign-in client secrets, Apple's key, passwords). */
const SECRET_KEYS = new Set(['client_secret', 'apple_private_key', 'password']);
/** A URI whose password is redacted (`smtp://user:********@host`). */
const REDACTED_IN_URI = `:${REDACTED_SECRET}@`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** A copy of `value` with every secret value (by key) replaced by the redaction mark. */
export function redactSecrets<T>(value: T): T {
  const walk = (node: unknown, key: string | null): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, null));
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]));
    if (typeof node === 'string' && node !== '' && key !== null && SECRET_KEYS.has(key)) return REDACTED_SECRET;
    return node;
  };
  return walk(value, null) as T;
}

/** The JSON pointers of every redacted secret in `value`: a value that is the mark, or a URI whose password is. */
export function redactedSecretPaths(value: unknown): string[] {
  const paths: string[] = [];
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${escape(k)}`);
    else if (typeof node === 'string' && (node === REDACTED_SECRET || node.includes(REDACTED_IN_URI))) paths.push(pointer);
  };
  walk(value, '');
  return paths;
}

/**
 * `value` with each redacted secret replaced by the one given for its pointer (a URI's password percent-encoded
 * into it); `missing` names the pointers no secret was given for.
 */
export function fillSecrets<T>(value: T, secrets: Readonly<Record<string, string>>): { filled: T; missing: string[] } {
  const missing: string[] = [];
  const walk = (node: unknown, pointer: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${pointer}/${i}`));
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, `${pointer}/${escape(k)}`)]));
    if (typeof node !== 'string' || (node !== REDACTED_SECRET && !node.includes(REDACTED_IN_URI))) return node;
    const secret = secrets[pointer];
    if (secret === undefined || secret === '') {
      missing.push(pointer);
      return node;
    }
    return node === REDACTED_SECRET ? secret : node.replace(REDACTED_IN_URI, `:${encodeURIComponent(secret)}@`);
  };
  return { filled: walk(value, '') as T, missing };
}

export type { Json };
