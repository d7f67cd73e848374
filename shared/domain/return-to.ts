/** Whitespace, control characters and backslashes: browsers drop or rewrite them, so they can hide a host. */
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/;

function originOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The path (with query and fragment) `value` points to when it is safe to send the user there after
 * signing in: a path starting with a single '/', or an absolute http(s) URL on exactly `origin`
 * (scheme, host and port). Anything else gives null: protocol-relative URLs (//evil.example),
 * backslashes, whitespace or control characters anywhere, other schemes (javascript:, data:),
 * other origins and bare relative paths. The result is normalised by the URL parser and never starts
 * with '//'. Used by both the server (return_to checks) and the client (returnTo after login).
 */
export function safeReturnTo(value: unknown, origin: string): string | null {
  if (typeof value !== 'string' || value === '' || UNSAFE_CHARACTERS.test(value)) return null;
  const expected = originOf(origin);
  if (expected === null) return null;
  const isPath = value.startsWith('/');
  if (isPath && value.startsWith('//')) return null;
  if (!isPath && !/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, expected);
  } catch {
    return null;
  }
  if (url.origin !== expected || url.username !== '' || url.password !== '') return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('//') ? null : path;
}

/** The same check, answering an absolute URL on `origin` (what a server-side redirect needs), or null. */
export function safeReturnToUrl(value: unknown, origin: string): string | null {
  const path = safeReturnTo(value, origin);
  const expected = originOf(origin);
  return path === null || expected === null ? null : `${expected}${path}`;
}
