import { describe, expect, it } from 'vitest';
import { ControlPlaneError } from './errors';
import { applyJsonPatch, parsePointer, touchedRoots, type JsonPatch } from './json-patch';

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
    ['non-numeric array index', [{ op: 'remove', path: '/list/x' }], /not an array index/],
    ['the document root', [{ op: 'replace', path: '', value: {} }], /root/],
    ['add without a value', [{ op: 'add', path: '/x' }], /value/],
    ['move without from', [{ op: 'move', path: '/x' }], /from/],
    ['a path through __proto__', [{ op: 'add', path: '/__proto__/polluted', value: 1 }], /__proto__/],
    ['a nested __proto__ key', [{ op: 'add', path: '/services/__proto__', value: { polluted: 1 } }], /__proto__/],
    ['test that fails', [{ op: 'test', path: '/name', value: 'other' }], /expected/],
  ])('answers 400 for %s', (_label, patch, reason) => {
    let caught: unknown;
    try {
      applyJsonPatch(doc(), patch);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ControlPlaneError);
    expect((caught as ControlPlaneError).statusCode).toBe(400);
    expect((caught as ControlPlaneError).reason).toMatch(reason);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
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
