/**
 * How the console writes dates, times, numbers and money: one format each, built on `Intl`, in the console's
 * language (English, US conventions) and the reader's time zone. Pages never call `toLocaleString` themselves.
 */

const LOCALE = 'en-US';

export interface FormatOptions {
  /** The IANA time zone to show times in; the reader's own when left out (tests pin it). */
  timeZone?: string;
}

type DateInput = string | number | Date;

const toDate = (value: DateInput): Date | null => {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * The reader's time zone where the code runs elsewhere than the reader: the server paints a page in the zone its
 * visitor's browser named (see `inReaderTimeZone`). Unset, the reader's zone is the one the code runs in.
 */
let readerTimeZone: string | undefined;

/** `zone` when it is an IANA time zone this runtime knows, else undefined. */
export function knownTimeZone(zone: string | undefined): string | undefined {
  if (!zone || zone.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat(LOCALE, { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Runs `render` (synchronously) with every date and time written in `zone`, the reader's, where the code runs
 * elsewhere than the reader (the server's paint of a page); an unknown zone leaves the runtime's own.
 */
export function inReaderTimeZone<T>(zone: string | undefined, render: () => T): T {
  const before = readerTimeZone;
  readerTimeZone = knownTimeZone(zone);
  try {
    return render();
  } finally {
    readerTimeZone = before;
  }
}

const cache = new Map<string, Intl.DateTimeFormat>();
const dateTimeFormat = (kind: 'date' | 'dateTime', timeZone: string) => {
  const key = `${kind}|${timeZone}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      ...(kind === 'dateTime' ? { hour: 'numeric', minute: '2-digit' } : {}),
      timeZone,
    });
    cache.set(key, format);
  }
  return format;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * In the reader's own time zone a date is written from the Date's local fields, as the Intl format above
 * writes it ("Nov 25, 2026, 3:04 PM"): making the first Intl.DateTimeFormat loads the locale's and the
 * time zone's data, some 25 ms of every first page that shows a date.
 */
const localDate = (date: Date) => `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
const localDateTime = (date: Date) => {
  const hours = date.getHours();
  return `${localDate(date)}, ${hours % 12 || 12}:${String(date.getMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
};

/** A day, e.g. "Nov 25, 2026". A value that is no date is shown as given; none at all as the fallback. */
export function formatDate(value: DateInput | null | undefined, opts: FormatOptions & { fallback?: string } = {}): string {
  if (value === null || value === undefined || value === '') return opts.fallback ?? '—';
  const date = toDate(value);
  const zone = opts.timeZone ?? readerTimeZone;
  return date ? (zone ? dateTimeFormat('date', zone).format(date) : localDate(date)) : String(value);
}

/** A moment, e.g. "Nov 25, 2026, 9:16 PM". */
export function formatDateTime(value: DateInput | null | undefined, opts: FormatOptions & { fallback?: string } = {}): string {
  if (value === null || value === undefined || value === '') return opts.fallback ?? '—';
  const date = toDate(value);
  const zone = opts.timeZone ?? readerTimeZone;
  return date ? (zone ? dateTimeFormat('dateTime', zone).format(date) : localDateTime(date)) : String(value);
}

// Each format is made on first use: making one loads its locale data, which a page that shows no such
// value should not wait for as the console starts.
let relativeFormat: Intl.RelativeTimeFormat | undefined;
const relative = () => (relativeFormat ??= new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' }));
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** A moment relative to now, e.g. "3 hours ago", "in 2 days", "now". */
export function formatRelative(value: DateInput, now: DateInput = Date.now()): string {
  const date = toDate(value);
  const reference = toDate(now);
  if (!date || !reference) return String(value);
  const seconds = Math.round((date.getTime() - reference.getTime()) / 1000);
  if (Math.abs(seconds) < 45) return relative().format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative().format(Math.round(seconds / size), unit);
  }
  return relative().format(0, 'second');
}

let integerFormat: Intl.NumberFormat | undefined;
const integer = () => (integerFormat ??= new Intl.NumberFormat(LOCALE));

/** A count or quantity, e.g. 12345 → "12,345". */
export function formatNumber(value: number): string {
  return integer().format(value);
}

/** A count with its noun, e.g. (1, 'identity', 'identities') → "1 identity", 2041 → "2,041 identities". */
export function formatCount(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
const moneyFormat = (currency: string, whole: boolean) => {
  const key = `${currency}|${whole}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency: currency.toUpperCase(),
      currencyDisplay: 'narrowSymbol',
      ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    });
    moneyFormats.set(key, format);
  }
  return format;
};

/** Cents as money in a currency, e.g. 7000 usd → "$70.00", -2100 eur → "-€21.00". */
export function formatMoney(cents: number, currency: string): string {
  return moneyFormat(currency, false).format(cents / 100);
}

/** A price in whole currency units as a catalogue shows it: 29 → "$29", 0.5 → "$0.50", 1200 → "$1,200". */
export function formatPrice(amount: number, currency: string): string {
  return moneyFormat(currency, Number.isInteger(amount)).format(amount);
}
