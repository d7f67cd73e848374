import { describe, expect, it } from 'vitest';
import { bucketStart, bucketStarts, MAX_BUCKETS, parseResolution, userAgentFamily } from './metrics';

describe('metrics buckets', () => {
  it('reads resolutions as Ory writes them and refuses anything else', () => {
    expect(parseResolution('15m')).toEqual({ n: 15, unit: 'm' });
    expect(parseResolution('1M')).toEqual({ n: 1, unit: 'M' });
    expect(parseResolution('0h')).toBeNull();
    expect(parseResolution('1w')).toBeNull();
  });

  it('aligns fixed units to the epoch and months to the calendar (UTC)', () => {
    expect(bucketStart(new Date('2026-03-15T10:47:00Z'), { n: 1, unit: 'h' }).toISOString()).toBe('2026-03-15T10:00:00.000Z');
    expect(bucketStart(new Date('2026-03-15T10:47:00Z'), { n: 1, unit: 'M' }).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(bucketStart(new Date('2026-03-15T10:47:00Z'), { n: 1, unit: 'y' }).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('lists every bucket overlapping the range, and refuses more than the cap', () => {
    const days = bucketStarts(new Date('2026-03-01T12:00:00Z'), new Date('2026-03-04T00:00:00Z'), { n: 1, unit: 'd' });
    expect(days?.map((d) => d.toISOString().slice(0, 10))).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(bucketStarts(new Date(0), new Date((MAX_BUCKETS + 1) * 60_000), { n: 1, unit: 'm' })).toBeNull();
  });

  it('names a browser family, never the header itself', () => {
    expect(userAgentFamily('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36')).toBe('Chrome');
    expect(userAgentFamily('curl/8.0.1')).toBe('curl');
    expect(userAgentFamily(undefined)).toBe('unknown');
  });
});
