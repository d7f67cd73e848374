/**
 * What never reaches a log line, for the console's logger and the local stack's: headers that carry
 * credentials (cookies, bearer keys, session tokens) and any field named like a secret.
 */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-session-token"]',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'headers["x-session-token"]',
  'cookie',
  'authorization',
  'password',
  'token',
  'secret',
  '*.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.session_token',
  '*.*.password',
  '*.*.token',
  '*.*.secret',
  'connection_uri',
  '*.connection_uri',
  '*.*.connection_uri',
];

export const REDACTED = '[redacted]';

/** Masks query parameters that carry secrets (logout tokens, recovery/verification codes, CSRF tokens). */
export function maskUrl(url: string): string {
  return url.replace(/([?&](?:token|code|csrf_token|session_token|secret|password)=)[^&#]*/gi, `$1${REDACTED}`);
}
