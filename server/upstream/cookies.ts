/** Cookie names that carry an identity session: Kratos' own and Ory Network's per-project ones. */
export function isSessionCookieName(name: string): boolean {
  return name === 'ory_kratos_session' || name.startsWith('ory_session_');
}

/**
 * Reduces a browser Cookie header to the session cookie(s) only, so no other cookie of our origin
 * ever leaves the BFF. Returns undefined when there is none.
 */
export function sessionCookieHeader(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const kept: string[] = [];
  for (const part of cookieHeader.split(';')) {
    const pair = part.trim();
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    if (isSessionCookieName(pair.slice(0, eq).trim())) kept.push(pair);
  }
  return kept.length > 0 ? kept.join('; ') : undefined;
}
