import { describe, expect, it } from 'vitest';
import { scopeInWords } from './scope-words';

describe('scopeInWords', () => {
  it('says what the standard scopes allow, and shows any other scope as it is', () => {
    expect(scopeInWords('email')).toBe('See your email address');
    expect(scopeInWords('offline_access')).toBe(scopeInWords('offline'));
    expect(scopeInWords('projects:write')).toBe('projects:write');
  });
});
