import { describe, expect, it } from 'vitest';
import { createPageTokens } from './page-token';

const PROJECT = '6f1c1f5e-0d7a-4c4e-9a51-0d6b8f0c1a11';
const OTHER = '0b9d2a47-5f7e-4b8e-8c1d-3a2e5f6a7b8c';

describe('relation-tuple page tokens', () => {
  it('give back the position they were sealed with, for the same project only', () => {
    const tokens = createPageTokens();
    const token = tokens.seal(PROJECT, 42);
    expect(tokens.open(PROJECT, token)).toBe(42);
    expect(tokens.open(OTHER, token)).toBe('invalid');
    expect(tokens.open(PROJECT, undefined)).toBeNull();
    expect(tokens.open(PROJECT, '')).toBeNull();
  });

  it('cannot be read or forged: the position is not in the token, and a changed byte or another key is refused', () => {
    const tokens = createPageTokens();
    // A position of nine digits: random ciphertext bytes spell it by chance about once in 10^20 tokens (two digits
    // did once in about 1,300).
    const position = 123_456_789;
    const token = tokens.seal(PROJECT, position);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain(String(position));
    expect(tokens.open(PROJECT, token)).toBe(position);
    expect(tokens.seal(PROJECT, position)).not.toBe(token);
    const raw = Buffer.from(token, 'base64url');
    raw[raw.length - 20]! ^= 1;
    expect(tokens.open(PROJECT, raw.toString('base64url'))).toBe('invalid');
    expect(createPageTokens().open(PROJECT, token)).toBe('invalid');
    expect(tokens.open(PROJECT, Buffer.from('s1').toString('base64url'))).toBe('invalid');
    expect(tokens.open(PROJECT, 'x'.repeat(2000))).toBe('invalid');
  });
});
