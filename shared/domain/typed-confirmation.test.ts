import { describe, expect, it } from 'vitest';
import { confirmsName } from './typed-confirmation';

describe('confirmsName', () => {
  it.each([
    ['Alpha', 'Alpha', true],
    ['  Alpha ', 'Alpha', true],
    ['alpha', 'Alpha', false],
    ['Alph', 'Alpha', false],
    ['Alpha Prime', 'Alpha  Prime', false],
    ['', 'Alpha', false],
  ])('%j confirms %j: %s', (typed, name, expected) => {
    expect(confirmsName(typed, name)).toBe(expected);
  });
});
