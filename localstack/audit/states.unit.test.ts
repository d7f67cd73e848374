import { describe, expect, it } from 'vitest';
import { listedState } from './states';

describe('listedState', () => {
  it('keeps every item of a small list, with its count', () => {
    expect(listedState('relation_tuples', [{ object: 'a' }, { object: 'b' }])).toEqual({ relation_tuples: [{ object: 'a' }, { object: 'b' }], count: 2 });
  });

  it('cuts a list past the bound of a state, and says how many there were', () => {
    const items = Array.from({ length: 1500 }, (_, i) => ({ object: `${i}`.padStart(500, 'x') }));
    const state = listedState('relation_tuples', items, 5000);
    const kept = state.relation_tuples as unknown[];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(1500);
    expect(JSON.stringify(state).length).toBeLessThanOrEqual(512 * 1024 + 100);
    expect(state).toMatchObject({ count: 5000, truncated: true });
  });

  it('redacts a secret-named value', () => {
    expect(listedState('items', [{ id: 'x', password: 'hunter2' }]).items).toEqual([{ id: 'x', password: expect.not.stringContaining('hunter2') }]);
  });
});
