import { describe, expect, it } from 'vitest';
import { createScopeBook, scopeAllowed } from './scope-strategy';

describe('scope strategies (Hydra strategies.scope)', () => {
  it('exact allows a scope only when the client lists it as written', () => {
    expect(scopeAllowed('exact', ['openid', 'photos.*'], 'openid')).toBe(true);
    expect(scopeAllowed('exact', ['openid', 'photos.*'], 'photos.*')).toBe(true);
    expect(scopeAllowed('exact', ['openid', 'photos.*'], 'photos.read')).toBe(false);
    expect(scopeAllowed('exact', [], 'openid')).toBe(false);
  });

  it('wildcard lets a * part stand for one non-empty part, and a final * for the rest', () => {
    const client = ['photos.*', 'a.*.c', 'openid'];
    const cases: Array<[string, boolean]> = [
      ['photos.read', true],
      ['photos.read.thumbnails', true],
      ['photos.*', true],
      ['photos', false],
      ['photos.', false],
      ['videos.read', false],
      ['a.b.c', true],
      ['a.b.d', false],
      ['a.b.c.d', false],
      ['a..c', false],
      ['openid', true],
      ['openid.email', false],
    ];
    for (const [scope, allowed] of cases) expect([scope, scopeAllowed('wildcard', client, scope)]).toEqual([scope, allowed]);
  });

  it('widens a client list with the known scopes the strategy allows, and stops learning at its limit', () => {
    const book = createScopeBook(['openid', 'photos.*'], 'wildcard', 3);
    book.learn('photos.read videos.read photos.write bad"scope');
    expect(book.grantable('openid photos.*')).toBe('openid photos.* photos.read photos.write');
    expect(book.full).toBe(true);
    book.learn('photos.delete');
    expect(book.known.has('photos.delete')).toBe(false);
    expect(createScopeBook(['photos.*'], 'exact').grantable('photos.*')).toBe('photos.*');
  });
});
