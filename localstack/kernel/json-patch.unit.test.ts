import { describe, expect, it } from 'vitest';
import { OryError } from './errors';
import { applyJsonPatch, jsonPatchSchema, MAX_PATCH_OPERATIONS, MAX_PATCHED_DOCUMENT_BYTES, parsePointer, touchedRoots, type JsonPatch } from './json-patch';

const doc = () => ({ name: 'p', services: { identity: { config: { a: 1 } } }, list: ['x', 'y'], 'a/b': { '~': 1 } });

describe('applyJsonPatch', () => {
  it.each<[string, JsonPatch, Record<string, unknown>]>([
    ['replace a field', [{ op: 'replace', path: '/name', value: 'q' }], { name: 'q' }],
    [
      'add a nested field',
      [{ op: 'add', path: '/services/identity/config/b', value: 2 }],
      { services: { identity: { config: { a: 1, b: 2 } } } },
    ],
    [
      'remove a nested field',
      [{ op: 'remove', path: '/services/identity/config/a' }],
      { services: { identity: { config: {} } } },
    ],
    ['append to an array', [{ op: 'add', path: '/list/-', value: 'z' }], { list: ['x', 'y', 'z'] }],
    ['insert into an array', [{ op: 'add', path: '/list/0', value: 'w' }], { list: ['w', 'x', 'y'] }],
    ['replace in an array', [{ op: 'replace', path: '/list/1', value: 'v' }], { list: ['x', 'v'] }],
    ['remove from an array', [{ op: 'remove', path: '/list/0' }], { list: ['y'] }],
    ['escaped pointer tokens', [{ op: 'replace', path: '/a~1b/~0', value: 2 }], { 'a/b': { '~': 2 } }],
    ['move', [{ op: 'move', from: '/name', path: '/title' }], { title: 'p' }],
    ['copy', [{ op: 'copy', from: '/list', path: '/copy' }], { copy: ['x', 'y'], list: ['x', 'y'] }],
    ['test that passes', [{ op: 'test', path: '/name', value: 'p' }], { name: 'p' }],
  ])('%s', (_label, patch, expected) => {
    const out = applyJsonPatch(doc(), patch);
    expect(out).toMatchObject(expected);
    if (_label === 'move') expect(out).not.toHaveProperty('name');
  });

  it('never changes its input', () => {
    const input = doc();
    applyJsonPatch(input, [{ op: 'remove', path: '/services/identity' }]);
    expect(input).toEqual(doc());
  });

  it.each<[string, JsonPatch, RegExp]>([
    ['replace of a missing field', [{ op: 'replace', path: '/nope', value: 1 }], /does not exist/],
    ['remove of a missing field', [{ op: 'remove', path: '/services/nope' }], /does not exist/],
    ['add under a missing parent', [{ op: 'add', path: '/a/b/c', value: 1 }], /does not exist/],
    ['array index out of range', [{ op: 'add', path: '/list/5', value: 1 }], /out of range/],
    ['non-numeric array index', [{ op: 'add', path: '/list/x', value: 1 }], /not an array index/],
    ['remove of a non-numeric array index', [{ op: 'remove', path: '/list/x' }], /does not exist/],
    ['the document root', [{ op: 'replace', path: '', value: {} }], /root/],
    ['add without a value', [{ op: 'add', path: '/x' }], /value/],
    ['move without from', [{ op: 'move', path: '/x' }], /from/],
    ['a path through __proto__', [{ op: 'add', path: '/__proto__/polluted', value: 1 }], /__proto__/],
    ['a nested __proto__ key', [{ op: 'add', path: '/services/__proto__', value: { polluted: 1 } }], /__proto__/],
    ['test that fails', [{ op: 'test', path: '/name', value: 'other' }], /expected/],
    ['a copy from an inherited property', [{ op: 'copy', from: '/services/constructor', path: '/x' }], /does not exist/],
    ['a replace of an inherited property', [{ op: 'replace', path: '/services/toString', value: 1 }], /does not exist/],
    ['a move into its own child', [{ op: 'move', from: '/services', path: '/services/identity/again' }], /into itself/],
    ['a copy from a missing path', [{ op: 'copy', from: '/nope', path: '/x' }], /\/nope does not exist/],
  ])('answers 400 for %s', (_label, patch, reason) => {
    let caught: unknown;
    try {
      applyJsonPatch(doc(), patch);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(OryError);
    expect((caught as OryError).status).toBe(400);
    expect((caught as OryError).reason).toMatch(reason);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('size and length limits', () => {
  const reasonOf = (run: () => unknown): string => {
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(OryError);
      expect((err as OryError).status).toBe(400);
      return (err as OryError).reason;
    }
    throw new Error('expected the patch to be refused');
  };

  it('stops a chain of self-doubling copies at the operation that would pass the size limit', () => {
    const patch: JsonPatch = [
      { op: 'add', path: '/blob', value: ['x'.repeat(1500)] },
      ...Array.from({ length: 30 }, () => ({ op: 'copy' as const, from: '/blob', path: '/blob/-' })),
    ];
    const reason = reasonOf(() => applyJsonPatch(doc(), patch));
    expect(reason).toMatch(new RegExp(`exceed ${MAX_PATCHED_DOCUMENT_BYTES} bytes`));
    // 1.5 KB doubles past 1 MiB at the 10th copy: refused there, never after building the 30th.
    const at = Number(/operation (\d+)/.exec(reason)![1]);
    expect(at).toBeGreaterThan(5);
    expect(at).toBeLessThan(15);
  });

  it('refuses values that make the document too large, and accepts one just under the limit', () => {
    const half = 'x'.repeat(MAX_PATCHED_DOCUMENT_BYTES / 2);
    expect(reasonOf(() => applyJsonPatch(doc(), [{ op: 'add', path: '/a', value: half }, { op: 'add', path: '/b', value: half }]))).toMatch(
      /operation 1 \(add \/b\).*exceed/,
    );
    const out = applyJsonPatch(doc(), [{ op: 'add', path: '/a', value: half }, { op: 'replace', path: '/a', value: 'small' }, { op: 'add', path: '/b', value: half }]);
    expect(out).toMatchObject({ a: 'small' });
    expect(out).toHaveProperty('b', half);
  });

  it(`caps a patch at ${MAX_PATCH_OPERATIONS} operations, saying so`, () => {
    const ops = (n: number) => Array.from({ length: n }, () => ({ op: 'test', path: '/name', value: 'p' }));
    expect(jsonPatchSchema.safeParse(ops(MAX_PATCH_OPERATIONS)).success).toBe(true);
    const tooMany = jsonPatchSchema.safeParse(ops(MAX_PATCH_OPERATIONS + 1));
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0]?.message).toMatch(/at most 100 operations; split it/);
    expect(reasonOf(() => applyJsonPatch(doc(), ops(MAX_PATCH_OPERATIONS + 1) as JsonPatch))).toMatch(/at most 100 operations/);
  });
});

describe('pointers', () => {
  it('parses and unescapes tokens', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/a~1b/~0c/0')).toEqual(['a/b', '~c', '0']);
  });

  it('names the roots a patch touches', () => {
    expect(touchedRoots([{ op: 'move', from: '/id', path: '/services/x' }, { op: 'remove', path: '/name' }])).toEqual([
      'services',
      'id',
      'name',
    ]);
  });
});
