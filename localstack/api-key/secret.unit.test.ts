import { describe, expect, it } from 'vitest';
import { apiKeyKind, hashApiKey, newSecret, sameHash } from './secret';
import { bearerToken } from './verify';

describe('API key secrets', () => {
  it('issue prefixed keys whose hash, not value, is kept, with the last characters for display', () => {
    const project = newSecret('project');
    const workspace = newSecret('workspace');
    expect(project.value).toMatch(/^ory_pat_[A-Za-z0-9_-]{43}$/);
    expect(workspace.value).toMatch(/^ory_wak_[A-Za-z0-9_-]{43}$/);
    expect(project.hash).toBe(hashApiKey(project.value));
    expect(project.hash).not.toContain(project.value.slice(8));
    expect(project.lastCharacters).toBe(project.value.slice(-4));
    expect(newSecret('project').value).not.toBe(project.value);
  });

  it('recognise only well-formed keys of either kind', () => {
    expect(apiKeyKind(newSecret('project').value)).toBe('project');
    expect(apiKeyKind(newSecret('workspace').value)).toBe('workspace');
    expect(apiKeyKind('ory_pat_short')).toBeNull();
    expect(apiKeyKind(`ory_xyz_${'a'.repeat(43)}`)).toBeNull();
    expect(apiKeyKind(`${newSecret('project').value} `)).toBeNull();
  });

  it('compare hashes exactly', () => {
    const { hash } = newSecret('project');
    expect(sameHash(hash, hash)).toBe(true);
    expect(sameHash(hash, hashApiKey('other'))).toBe(false);
    expect(sameHash(hash, hash.slice(0, 10))).toBe(false);
  });

  it('read the key of a Bearer authorization header', () => {
    expect(bearerToken('Bearer ory_wak_abc')).toBe('ory_wak_abc');
    expect(bearerToken('bearer   ory_wak_abc ')).toBe('ory_wak_abc');
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('')).toBeNull();
  });
});
