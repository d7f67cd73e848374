import { describe, expect, it } from 'vitest';
import { negotiate } from './http';

describe('negotiate (Kratos-style Accept negotiation)', () => {
  it('picks HTML without an Accept header or for wildcards', () => {
    expect(negotiate(undefined)).toBe('text/html');
    expect(negotiate('')).toBe('text/html');
    expect(negotiate('*/*')).toBe('text/html');
  });

  it('weighs q-values and excludes q=0', () => {
    expect(negotiate('application/json')).toBe('application/json');
    expect(negotiate('application/json;q=0, text/html')).toBe('text/html');
    expect(negotiate('text/html;q=0.5, application/json')).toBe('application/json');
    expect(negotiate('text/html, application/json;q=0.9')).toBe('text/html');
    expect(negotiate('application/json, */*;q=0.8')).toBe('application/json');
    expect(negotiate('text/*;q=0.3, application/json;q=0.2')).toBe('text/html');
  });

  it('prefers an exact type to a wildcard of equal weight', () => {
    expect(negotiate('*/*, application/json')).toBe('application/json');
    expect(negotiate('application/json, text/html')).toBe('text/html');
  });
});
