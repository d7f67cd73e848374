import { describe, expect, it } from 'vitest';
import { FAILED_REQUESTS_KEPT, recentFailures, recordFailure } from './failed-requests';

describe('recordFailure', () => {
  it('keeps the procedure, code and status of the last few failures, and nothing of their message', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    for (let i = 0; i < FAILED_REQUESTS_KEPT + 2; i += 1) {
      recordFailure(`area.call${i}`, { message: 'ada@example.com is not allowed', data: { code: 'FORBIDDEN', httpStatus: 403 } }, at);
    }
    recordFailure('area.offline', new TypeError('Failed to fetch'), at);
    const kept = recentFailures();
    expect(kept).toHaveLength(FAILED_REQUESTS_KEPT);
    expect(kept.at(-1)).toEqual({ procedure: 'area.offline', code: 'NETWORK', status: null, at: '2026-01-02T03:04:05.000Z' });
    expect(kept[0]).toEqual({ procedure: 'area.call3', code: 'FORBIDDEN', status: 403, at: '2026-01-02T03:04:05.000Z' });
    expect(JSON.stringify(kept)).not.toContain('ada@example.com');
  });
});
