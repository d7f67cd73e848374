import { describe, expect, it } from 'vitest';
import { joinScope, normalizeOAuth2ClientBody, type OAuth2ClientFormFields, parseJwks } from './oauth2-client';

type Body = OAuth2ClientFormFields & Record<string, unknown>;

describe('parseJwks', () => {
  it.each([
    ['{"keys":[]}', { keys: [] }],
    [' {"keys":[{"kty":"RSA"}]} ', { keys: [{ kty: 'RSA' }] }],
    [{ keys: [] }, { keys: [] }],
    ['', undefined],
    ['{not json', undefined],
    ['[]', undefined],
    ['42', undefined],
    ['null', undefined],
    ['"text"', undefined],
    [null, undefined],
    [undefined, undefined],
    [[{ keys: [] }], undefined],
  ])('%j → %j', (value, expected) => {
    expect(parseJwks(value)).toEqual(expected);
  });
});

describe('joinScope', () => {
  it.each([
    [['openid', 'offline_access'], 'openid offline_access'],
    [['openid'], 'openid'],
    [[], ''],
    [[' openid ', '', 'email'], 'openid email'],
    ['openid email', 'openid email'],
    ['', ''],
    [null, undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => {
    expect(joinScope(value)).toBe(expected);
  });
});

describe('normalizeOAuth2ClientBody', () => {
  it.each<[string, Body, Record<string, unknown>]>([
    [
      'all three rewritten, other fields kept',
      { client_name: 'app', jwks: '{"keys":[]}', scope: ['openid', 'email'], skip_logout_consent: true, extra: 1 },
      { client_name: 'app', jwks: { keys: [] }, scope: 'openid email', skip_logout_consent: true, extra: 1 },
    ],
    ['jwks that does not parse is left out', { jwks: 'nope' }, {}],
    ['skip_logout_consent false is not sent', { skip_logout_consent: false }, {}],
    ['skip_logout_consent null is not sent', { skip_logout_consent: null }, {}],
    ['a scope string is kept', { scope: 'openid' }, { scope: 'openid' }],
    ['nothing to rewrite', { client_name: 'x' }, { client_name: 'x' }],
  ])('%s', (_name, body, expected) => {
    expect(normalizeOAuth2ClientBody(body)).toStrictEqual(expected);
  });

  it('does not change its input', () => {
    const body = { scope: ['a', 'b'], jwks: '{}' };
    normalizeOAuth2ClientBody(body);
    expect(body).toEqual({ scope: ['a', 'b'], jwks: '{}' });
  });
});
