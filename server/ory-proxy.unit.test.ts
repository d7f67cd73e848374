import { describe, expect, it } from 'vitest';
import { cspDirectives } from './http-guards';
import { rewriteLocation, stripCookieDomain } from './ory-proxy';

describe('stripCookieDomain', () => {
  it.each([
    ['ory_kratos_session=abc; Path=/; Domain=auth.example.com; HttpOnly', 'ory_kratos_session=abc; Path=/; HttpOnly'],
    ['a=b; domain=.x.com', 'a=b'],
    ['a=b; Path=/; SameSite=Lax', 'a=b; Path=/; SameSite=Lax'],
  ])('%s', (input, expected) => {
    expect(stripCookieDomain(input)).toBe(expected);
  });
});

describe('rewriteLocation', () => {
  const upstream = 'http://127.0.0.1:4455';
  const publicUrl = 'http://localhost:3000';
  it.each([
    ['http://127.0.0.1:4455/self-service/login/browser?x=1', 'http://localhost:3000/.ory/self-service/login/browser?x=1'],
    ['/self-service/errors?id=1', '/.ory/self-service/errors?id=1'],
    ['http://localhost:3000/login?flow=abc', 'http://localhost:3000/login?flow=abc'],
    ['http://127.0.0.1:44550/x', 'http://127.0.0.1:44550/x'],
    ['//evil.example/x', '//evil.example/x'],
  ])('%s → %s', (location, expected) => {
    expect(rewriteLocation(location, upstream, publicUrl)).toBe(expected);
  });
});

describe('cspDirectives', () => {
  it('allows scripts from our origin only and upgrades requests only on https', () => {
    expect(cspDirectives('http://localhost:3000')).toMatchObject({ scriptSrc: ["'self'"], defaultSrc: ["'self'"], upgradeInsecureRequests: null });
    expect(cspDirectives('https://console.example.com').upgradeInsecureRequests).toEqual([]);
  });
});
