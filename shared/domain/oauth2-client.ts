/** The fields of an OAuth2 client body the console rewrites before sending; all others pass unchanged. */
export interface OAuth2ClientFormFields {
  jwks?: unknown;
  scope?: string | readonly string[] | null;
  skip_logout_consent?: boolean | null;
}

export type NormalizedOAuth2ClientBody<T> = Omit<T, 'jwks' | 'scope' | 'skip_logout_consent'> & {
  jwks?: Record<string, unknown>;
  scope?: string;
  skip_logout_consent?: true;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Spec §3: a JWKS given as JSON text becomes an object; text that is not a JSON object gives undefined. */
export function parseJwks(jwks: unknown): Record<string, unknown> | undefined {
  if (isPlainObject(jwks)) return jwks;
  if (typeof jwks !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(jwks);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Spec §3: a list of scopes becomes one space-separated string (blank entries dropped). */
export function joinScope(scope: string | readonly string[] | null | undefined): string | undefined {
  if (scope === null || scope === undefined) return undefined;
  if (typeof scope === 'string') return scope;
  return scope
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .join(' ');
}

/**
 * Spec §3: the body of an OAuth2 client create or update. `jwks` text is parsed (left undefined when it
 * does not parse), a `scope` array is joined with spaces, and `skip_logout_consent` is sent only when
 * truthy. Every other field is kept as it is.
 */
export function normalizeOAuth2ClientBody<T extends OAuth2ClientFormFields>(body: T): NormalizedOAuth2ClientBody<T> {
  const { jwks, scope, skip_logout_consent, ...rest } = body;
  const out: Record<string, unknown> = { ...rest };
  if ('jwks' in body) {
    const parsed = parseJwks(jwks);
    if (parsed !== undefined) out.jwks = parsed;
  }
  const joined = joinScope(scope);
  if (joined !== undefined) out.scope = joined;
  if (skip_logout_consent) out.skip_logout_consent = true;
  return out as NormalizedOAuth2ClientBody<T>;
}
