/**
 * The browser names its time zone in a cookie, so that the server paints a page's dates and times as the page
 * will show them once it runs (client/src/lib/reader-zone.ts sets it, server/static-client.ts reads it).
 */
export const READER_ZONE_COOKIE = 'console_tz';

/** The zone a Cookie header names, as given (the formatter checks it is one), or undefined. */
export function readerZoneOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== READER_ZONE_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
