import { describe, expect, it } from 'vitest';
import { changedFields, changesToPatch, pointerSegment, sameJson } from './changed-fields';

describe('sameJson', () => {
  it.each([
    [1, 1, true],
    ['a', 'a', true],
    [null, null, true],
    [null, undefined, false],
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, true],
    [{ a: [1, 2] }, { a: [2, 1] }, false],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [[], {}, false],
  ])('sameJson(%j, %j) → %s', (a, b, expected) => {
    expect(sameJson(a, b)).toBe(expected);
  });
});

describe('changedFields', () => {
  it('keeps only what differs from the saved values', () => {
    expect(changedFields({ name: 'Alpha', environment: 'dev' }, { name: 'Alpha Prime', environment: 'dev' })).toEqual({ name: 'Alpha Prime' });
  });

  it('is empty when nothing changed', () => {
    expect(changedFields({ name: 'Alpha', tags: ['a'] }, { name: 'Alpha', tags: ['a'] })).toEqual({});
  });

  it('never mentions saved fields the form does not hold', () => {
    const saved = { name: 'Alpha', hidden_setting: 'keep me' };
    expect(changedFields(saved, { name: 'Beta' })).toEqual({ name: 'Beta' });
  });
});

describe('changesToPatch', () => {
  const saved = { name: 'Alpha', environment: 'dev', note: 'x', unrendered: { deep: true } };

  it('replaces existing fields and touches nothing else', () => {
    expect(changesToPatch(saved, { name: 'Alpha Prime' })).toEqual([{ op: 'replace', path: '/name', value: 'Alpha Prime' }]);
  });

  it('adds new fields and removes fields set to undefined', () => {
    expect(changesToPatch(saved, { color: 'blue', note: undefined })).toEqual([
      { op: 'add', path: '/color', value: 'blue' },
      { op: 'remove', path: '/note' },
    ]);
  });

  it('does not remove what is not there', () => {
    expect(changesToPatch(saved, { missing: undefined })).toEqual([]);
  });

  it('escapes keys as JSON pointer segments', () => {
    expect(pointerSegment('a/b~c')).toBe('a~1b~0c');
    expect(changesToPatch({}, { 'a/b': 1 })).toEqual([{ op: 'add', path: '/a~1b', value: 1 }]);
  });

  it('round-trips with changedFields: the patch of the changes is empty when nothing changed', () => {
    expect(changesToPatch(saved, changedFields(saved, { name: 'Alpha', environment: 'dev' }))).toEqual([]);
  });
});
