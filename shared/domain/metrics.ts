/**
 * Project metrics: the events a project's data planes record, the resolutions a time series is bucketed by,
 * and how far back a plan lets metrics be read.
 */

/** Every event type the data planes record, with what it means to a person reading the activity page. */
export const EVENT_TYPES = {
  RegistrationSucceeded: 'Sign-up',
  LoginSucceeded: 'Sign-in',
  LoginFailed: 'Sign-in failed',
  RecoverySucceeded: 'Account recovered',
  VerificationSucceeded: 'Address verified',
  SettingsSucceeded: 'Settings changed',
  SessionIssued: 'Session created',
  SessionRevoked: 'Session revoked',
  OAuth2TokenIssued: 'OAuth2 token issued',
  PermissionChecked: 'Permission checked',
  CourierMessageSent: 'Message sent',
  CourierMessageAbandoned: 'Message abandoned',
  IdentityCreated: 'Identity created by an admin',
  IdentityDeleted: 'Identity deleted by an admin',
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];
export const isEventType = (name: string): name is EventType => Object.hasOwn(EVENT_TYPES, name);

/** The attributes events carry (each event only those that apply to it). */
export const EVENT_ATTRIBUTES = [
  'method',
  'aal',
  'flow_type',
  'reason',
  'identity_id',
  'session_id',
  'client_id',
  'grant_type',
  'namespace',
  'relation',
  'allowed',
  'channel',
  'template_type',
  'user_agent',
  'country',
] as const;
export type EventAttribute = (typeof EVENT_ATTRIBUTES)[number];

/** What an event records: attribute values are strings, as Ory's `Attribute` carries them. */
export type EventAttributes = Partial<Record<EventAttribute, string>>;

/** A browser or client family from a User-Agent header: enough to group sign-ins, never the header itself. */
export function userAgentFamily(ua: string | undefined): string {
  if (!ua) return 'unknown';
  if (/\bEdg(e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/\b(OPR|Opera)\//.test(ua)) return 'Opera';
  if (/\bFirefox\//.test(ua)) return 'Firefox';
  if (/\b(Chrome|Chromium|CriOS)\//.test(ua)) return 'Chrome';
  if (/\bSafari\//.test(ua)) return 'Safari';
  if (/^curl\//.test(ua)) return 'curl';
  if (/^node|undici|axios|node-fetch/i.test(ua)) return 'Node.js';
  return 'other';
}

/** A resolution as Ory's API writes it: a count and a unit (minutes, hours, days, months, years). */
export const RESOLUTION_PATTERN = /^([1-9][0-9]{0,3})(m|h|d|M|y)$/;

export type Resolution = { n: number; unit: 'm' | 'h' | 'd' | 'M' | 'y' };

export function parseResolution(text: string): Resolution | null {
  const m = RESOLUTION_PATTERN.exec(text);
  return m ? { n: Number(m[1]), unit: m[2] as Resolution['unit'] } : null;
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A series answers at most this many buckets: a finer resolution over a longer range is refused. */
export const MAX_BUCKETS = 1000;

/** The start of the bucket `at` falls in (UTC; fixed units aligned to the epoch, months and years to the calendar). */
export function bucketStart(at: Date, r: Resolution): Date {
  if (r.unit === 'M' || r.unit === 'y') {
    const months = at.getUTCFullYear() * 12 + at.getUTCMonth();
    const step = r.unit === 'y' ? r.n * 12 : r.n;
    const start = Math.floor(months / step) * step;
    return new Date(Date.UTC(Math.floor(start / 12), start % 12, 1));
  }
  const step = r.n * UNIT_MS[r.unit];
  return new Date(Math.floor(at.getTime() / step) * step);
}

/** The bucket after the one starting at `start`. */
export function nextBucket(start: Date, r: Resolution): Date {
  if (r.unit === 'M' || r.unit === 'y') {
    const months = r.unit === 'y' ? r.n * 12 : r.n;
    return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1));
  }
  return new Date(start.getTime() + r.n * UNIT_MS[r.unit]);
}

/** The starts of every bucket that overlaps [from, to), or null when there would be more than MAX_BUCKETS. */
export function bucketStarts(from: Date, to: Date, r: Resolution): Date[] | null {
  const out: Date[] = [];
  for (let b = bucketStart(from, r); b < to; b = nextBucket(b, r)) {
    if (out.length === MAX_BUCKETS) return null;
    out.push(b);
  }
  return out;
}

/** The earliest instant a plan keeping metrics for `days` days lets a query start at. */
export const metricsWindowStart = (now: Date, days: number): Date => new Date(now.getTime() - days * UNIT_MS.d);

/** The console's range picker: how far back each choice reaches, and the resolution it charts at. */
export const ACTIVITY_RANGES = {
  '24h': { label: 'Last 24 hours', ms: 24 * UNIT_MS.h, resolution: '1h' },
  '7d': { label: 'Last 7 days', ms: 7 * UNIT_MS.d, resolution: '1d' },
  '30d': { label: 'Last 30 days', ms: 30 * UNIT_MS.d, resolution: '1d' },
  '90d': { label: 'Last 90 days', ms: 90 * UNIT_MS.d, resolution: '1d' },
} as const;
export type ActivityRange = keyof typeof ACTIVITY_RANGES;
