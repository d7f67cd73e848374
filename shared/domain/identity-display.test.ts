import { describe, expect, it } from 'vitest';
import { deviceLabel, identifiersOf, identityLabel, identityName, sessionMethods } from './identity-display';

const identity = (traits: Record<string, unknown>, identifiers: string[] = []) =>
  ({ id: 'f1e2', traits, credentials: identifiers.length ? { password: { type: 'password', identifiers } } : {}, verifiable_addresses: [] }) as never;

describe('identity display', () => {
  it('names an identity by email, username, phone, identifier, then id', () => {
    expect(identityLabel(identity({ email: 'ada@example.com', username: 'ada' }))).toBe('ada@example.com');
    expect(identityLabel(identity({ username: 'ada' }))).toBe('ada');
    expect(identityLabel(identity({}, ['ada-login']))).toBe('ada-login');
    expect(identityLabel(identity({ email: '  ' }))).toBe('f1e2');
  });
  it('reads names as text or first and last', () => {
    expect(identityName(identity({ name: 'Ada Lovelace' }))).toBe('Ada Lovelace');
    expect(identityName(identity({ name: { first: 'Ada', last: 'Lovelace' } }))).toBe('Ada Lovelace');
    expect(identityName(identity({}))).toBeNull();
  });
  it('lists identifiers once across credentials', () => {
    expect(identifiersOf({ credentials: { password: { identifiers: ['a', 'b'] }, code: { identifiers: ['a'] } } } as never)).toEqual(['a', 'b']);
  });
  it('describes sessions and devices', () => {
    expect(sessionMethods({ authentication_methods: [{ method: 'password' }, { method: 'code_recovery' }, { method: 'password' }] } as never)).toBe('password, code_recovery');
    expect(sessionMethods({ authentication_methods: [] })).toBe('Unknown');
    expect(deviceLabel({ user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36', ip_address: '127.0.0.1' })).toBe('Chrome on Linux · 127.0.0.1');
    expect(deviceLabel({})).toBe('Unknown client');
  });
});
