import { describe, expect, it } from 'vitest';
import { activityWindow, resolutionsFor } from './window';

describe('the activity page window', () => {
  it('ends at the next whole minute and reaches back the range', () => {
    const w = activityWindow(Date.parse('2026-03-01T10:15:30Z'), '24h');
    expect(w).toEqual({ from: '2026-02-28T10:16:00.000Z', to: '2026-03-01T10:16:00.000Z' });
  });

  it('offers only resolutions that chart the range in a readable number of buckets', () => {
    expect(resolutionsFor('24h')).toEqual(['15m', '1h', '6h']);
    expect(resolutionsFor('7d')).toEqual(['1h', '6h', '1d']);
    expect(resolutionsFor('90d')).toEqual(['1d', '7d']);
  });
});
