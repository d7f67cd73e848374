import { describe, expect, it } from 'vitest';
import { configChanges, LONG_ARRAY, MAX_CHANGES } from './changes';

describe('configChanges', () => {
  it('reads a change as one line per setting, with the value before and after', () => {
    const before = { name: 'A', services: { identity: { config: { session: { lifespan: '24h' } } } }, list: ['x'] };
    const after = { name: 'B', services: { identity: { config: { session: { lifespan: '48h' }, selfservice: { methods: { totp: { enabled: true } } } } } }, list: ['x', 'y'] };
    expect(configChanges(before, after)).toEqual({
      changes: expect.arrayContaining([
        { op: 'replace', path: '/name', before: 'A', after: 'B' },
        { op: 'replace', path: '/services/identity/config/session/lifespan', before: '24h', after: '48h' },
        { op: 'add', path: '/services/identity/config/selfservice/methods/totp/enabled', after: true },
        { op: 'add', path: '/list/1', after: 'y' },
      ]),
      truncated: false,
    });
    expect(configChanges(before, after).changes).toHaveLength(4);
  });

  it('reads a removed object as its removed settings, and keys with slashes stay one key', () => {
    const before = { cors: { origins: { 'https://a.example/x': 'on' } }, kept: 1 };
    expect(configChanges(before, { kept: 1 }).changes).toEqual([{ op: 'remove', path: '/cors/origins/https:~1~1a.example~1x', before: 'on' }]);
  });

  it('answers nothing for equal documents, and cuts a huge change to the first changes, saying so', () => {
    expect(configChanges({ a: [1, 2] }, { a: [1, 2] })).toEqual({ changes: [], truncated: false });
    const wide = Object.fromEntries(Array.from({ length: MAX_CHANGES + 10 }, (_, i) => [`k${i}`, i]));
    const cut = configChanges({}, wide);
    expect(cut.changes).toHaveLength(MAX_CHANGES);
    expect(cut.truncated).toBe(true);
  });

  it('compares a long array whole, so a revision with tens of thousands of entries is answered as one change', () => {
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://app${i}.example.com`);
    const before = { services: { identity: { config: { allowed_return_urls: urls(20_000) } } }, name: 'A' };
    const after = { services: { identity: { config: { allowed_return_urls: urls(20_001).slice(1) } } }, name: 'B' };
    const { changes } = configChanges(before, after);
    expect(changes.map((c) => [c.op, c.path])).toEqual([
      ['replace', '/services/identity/config/allowed_return_urls'],
      ['replace', '/name'],
    ]);
    // Equal long arrays are no change; short ones still read item by item.
    expect(configChanges({ list: urls(LONG_ARRAY + 1) }, { list: urls(LONG_ARRAY + 1) }).changes).toEqual([]);
    expect(configChanges({ list: ['a'] }, { list: ['a', 'b'] }).changes).toEqual([{ op: 'add', path: '/list/1', after: 'b' }]);
  });
});
