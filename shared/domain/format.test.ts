import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatMoney, formatNumber, formatPrice, formatRelative, inReaderTimeZone, knownTimeZone } from './format';

const UTC = { timeZone: 'UTC' };

describe('formatDate and formatDateTime', () => {
  it('write one format for a day and one for a moment', () => {
    expect(formatDate('2026-11-25T21:16:21Z', UTC)).toBe('Nov 25, 2026');
    expect(formatDateTime('2026-11-25T21:16:21Z', UTC)).toBe('Nov 25, 2026, 9:16 PM');
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 5, 7, 3)), UTC)).toBe('Jan 5, 2026, 7:03 AM');
  });

  it('show the moment in the time zone asked for', () => {
    expect(formatDate('2026-11-25T23:30:00Z', { timeZone: 'Asia/Tokyo' })).toBe('Nov 26, 2026');
    expect(formatDateTime('2026-11-25T23:30:00Z', { timeZone: 'America/New_York' })).toBe('Nov 25, 2026, 6:30 PM');
  });

  it("write the reader's zone where the code runs elsewhere (the server's paint), and only while it renders", () => {
    const moment = '2026-11-25T23:30:00Z';
    expect(inReaderTimeZone('Asia/Tokyo', () => [formatDate(moment), formatDateTime(moment)])).toEqual(['Nov 26, 2026', 'Nov 26, 2026, 8:30 AM']);
    // A zone asked for by the caller still wins.
    expect(inReaderTimeZone('Asia/Tokyo', () => formatDate(moment, UTC))).toBe('Nov 25, 2026');
    // For a zone that is none, and afterwards (even after a failed render), the runtime's own.
    const runtime = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(moment));
    expect(inReaderTimeZone('Mars/Olympus', () => formatDateTime(moment))).toBe(runtime);
    expect(formatDateTime(moment)).toBe(runtime);
    expect(() =>
      inReaderTimeZone('Asia/Tokyo', () => {
        throw new Error('render failed');
      }),
    ).toThrow('render failed');
    expect(formatDateTime(moment)).toBe(runtime);
  });

  it('know a time zone by its IANA name only', () => {
    expect(knownTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(knownTimeZone('UTC')).toBe('UTC');
    expect(knownTimeZone('Mars/Olympus')).toBeUndefined();
    expect(knownTimeZone('')).toBeUndefined();
    expect(knownTimeZone(undefined)).toBeUndefined();
    expect(knownTimeZone('Europe/Berlin'.repeat(10))).toBeUndefined();
  });

  it("write the reader's own time zone exactly as Intl does, every hour of a year and the turn of each", () => {
    const intl = (kind: 'date' | 'dateTime') =>
      new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', ...(kind === 'dateTime' ? { hour: 'numeric', minute: '2-digit' } : {}) });
    const [date, dateTime] = [intl('date'), intl('dateTime')];
    const start = Date.UTC(2026, 0, 1);
    for (let hour = 0; hour < 366 * 24; hour += 7) {
      const moment = new Date(start + hour * 3_600_000 + (hour % 60) * 60_000);
      expect(formatDate(moment)).toBe(date.format(moment));
      expect(formatDateTime(moment)).toBe(dateTime.format(moment));
    }
    for (const moment of [new Date(2026, 0, 1, 0, 0), new Date(2026, 11, 31, 12, 5), new Date(2026, 5, 9, 23, 59), new Date(999, 2, 3, 11, 0)]) {
      expect(formatDateTime(moment)).toBe(dateTime.format(moment));
    }
  });

  it('show a dash, or the fallback, for no date, and the text itself for something that is no date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate(undefined, { fallback: 'Never' })).toBe('Never');
    expect(formatDateTime('')).toBe('—');
    expect(formatDate('soon')).toBe('soon');
  });
});

describe('formatRelative', () => {
  const now = '2026-11-25T12:00:00Z';
  it('names the distance in the largest whole unit', () => {
    expect(formatRelative('2026-11-25T11:59:50Z', now)).toBe('now');
    expect(formatRelative('2026-11-25T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-11-25T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelative('2026-11-24T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelative('2026-11-27T12:00:00Z', now)).toBe('in 2 days');
    expect(formatRelative('2025-11-25T12:00:00Z', now)).toBe('last year');
  });
});

describe('numbers and money', () => {
  it('group thousands and name the noun by count', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatCount(1, 'identity', 'identities')).toBe('1 identity');
    expect(formatCount(2041, 'identity', 'identities')).toBe('2,041 identities');
    expect(formatCount(0, 'identity', 'identities')).toBe('0 identities');
  });

  it('write cents as money in its currency', () => {
    expect(formatMoney(7000, 'usd')).toBe('$70.00');
    expect(formatMoney(-2100, 'eur')).toBe('-€21.00');
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(0, 'usd')).toBe('$0.00');
  });

  it('write catalogue prices without cents when they have none', () => {
    expect(formatPrice(29, 'usd')).toBe('$29');
    expect(formatPrice(1200, 'eur')).toBe('€1,200');
    expect(formatPrice(0.07, 'usd')).toBe('$0.07');
  });
});
