import { READER_ZONE_COOKIE, readerZoneOf } from '../../../shared/reader-zone';

/**
 * Names the browser's time zone to the server in a cookie (a year long, first-party), so that the next page
 * opened by URL is painted with its dates in that zone and nothing changes when the console takes it over.
 */
export function rememberReaderZone(): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone || readerZoneOf(document.cookie) === zone) return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${READER_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
