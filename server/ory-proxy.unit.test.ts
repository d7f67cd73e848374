import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CODE_AFTER_PAINT_SCRIPT } from '../shared/code-after-paint';
import { THEME_BOOT_SCRIPT } from '../shared/theme-boot';
import { CODE_AFTER_PAINT_SCRIPT_SOURCE, cspDirectives, projectApiSource, THEME_BOOT_SCRIPT_SOURCE } from './http-guards';
import { classifyOryPath, rewriteLocation, stripCookieDomain } from './ory-proxy';

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
  it('allows scripts from our origin only (and the theme script by its hash) and upgrades requests only on https', () => {
    expect(cspDirectives('http://localhost:3000')).toMatchObject({ scriptSrc: ["'self'", THEME_BOOT_SCRIPT_SOURCE, CODE_AFTER_PAINT_SCRIPT_SOURCE], defaultSrc: ["'self'"], upgradeInsecureRequests: null });
    expect(THEME_BOOT_SCRIPT_SOURCE).toBe(`'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`);
    expect(CODE_AFTER_PAINT_SCRIPT_SOURCE).toBe(`'sha256-${createHash('sha256').update(CODE_AFTER_PAINT_SCRIPT).digest('base64')}'`);
    expect(cspDirectives('https://console.example.com').upgradeInsecureRequests).toEqual([]);
  });

  it("frames only the projects' own hosted pages", () => {
    expect(cspDirectives('http://localhost:3000').frameSrc).toEqual(["'self'"]);
    expect(cspDirectives('http://localhost:3000', 'http://localhost:4455/project-api/{slug}').frameSrc).toEqual(["'self'", 'http://localhost:4455']);
    expect(projectApiSource('https://{slug}.projects.oryapis.com')).toBe('https://*.projects.oryapis.com');
    expect(projectApiSource('https://api-{slug}.example.com')).toBeNull();
    expect(projectApiSource('not a url')).toBeNull();
  });
});

describe('classifyOryPath', () => {
  it.each([
    '/self-service/login/browser',
    '/self-service/login',
    '/self-service/settings/flows',
    '/self-service/logout',
    '/self-service/errors',
    '/sessions/whoami',
    '/schemas',
    '/schemas/ZGVmYXVsdA',
    '/oauth2/auth',
    '/oauth2/auth/e4PS9Q-kx_uid',
    '/oauth2/token',
    '/oauth2/sessions/logout',
    '/userinfo',
    '/.well-known/openid-configuration',
    '/.well-known/jwks.json',
    '/console/oauth2/login',
  ])('passes the public path %s', (path) => {
    expect(classifyOryPath(path)).toBe('public');
  });

  it.each([
    '/projects',
    '/projects/8d3f2c1e-0000-4000-8000-000000000000',
    '/workspaces',
    '/console/active/project',
    '/normalized/projects',
    '/normalized/projects/x/revision/y',
    '/local/mailbox',
    '/local/mailbox/messages',
    '/admin/identities',
    '/admin/oauth2/auth/requests/consent',
    '/oauth2/introspect',
    '/.well-known/other',
    '/sessions',
    '/sessions/abc',
    '/health/ready',
    '/',
    '/self-service',
  ])('does not pass %s', (path) => {
    expect(classifyOryPath(path)).toBe('not_found');
  });

  it.each([
    '/../x',
    '/%2e%2e/x',
    '/%2E%2E/projects',
    '/self-service/..%2f..%2fprojects',
    '/self-service/login/%2e%2e/%2e%2e/projects',
    '/self-service/login%2fbrowser',
    '/self-service\\..\\projects',
    '/self-service/%5c..%5cprojects',
    '//evil.example/x',
    '/self-service/./login',
  ])('refuses the path %s as invalid', (path) => {
    expect(classifyOryPath(path)).toBe('invalid');
  });
});
