import { safeReturnTo, safeReturnToUrl } from '../../../shared/domain/return-to';

/** The path, query and hash of the current page: what a return_to should bring the user back to. */
export function currentPathWithSearch(loc: Location = window.location): string {
  return `${loc.pathname}${loc.search}${loc.hash}`;
}

/** Adds (or replaces) one query parameter on an app path. */
export function withQueryParam(path: string, name: string, value: string): string {
  const url = new URL(path, 'http://app.invalid');
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Removes query parameters from a path; returns the same string when none were present. */
export function withoutQueryParams(path: string, names: readonly string[]): string {
  const url = new URL(path, 'http://app.invalid');
  let changed = false;
  for (const name of names) {
    if (url.searchParams.has(name)) {
      url.searchParams.delete(name);
      changed = true;
    }
  }
  return changed ? `${url.pathname}${url.search}${url.hash}` : path;
}

/** The login route with a return_to holding where the user was. */
export function loginPath(returnTo: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...extra, return_to: returnTo });
  return `/login?${params.toString()}`;
}

/**
 * Where to go once a flow is done: the return_to when it points at our own origin, else the fallback.
 * Answers an app path (no origin) so the router can navigate without a reload.
 */
export function appPathFromReturnTo(
  value: string | null | undefined,
  fallback: string,
  origin: string = window.location.origin,
): string {
  return safeReturnTo(value, origin) ?? fallback;
}

/** An absolute URL on our origin for a return_to sent to the identity provider. */
export function absoluteReturnTo(value: string | null | undefined, origin: string = window.location.origin): string | null {
  return safeReturnToUrl(value, origin);
}
