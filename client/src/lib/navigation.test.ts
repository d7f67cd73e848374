import { describe, expect, it } from 'vitest';
import { createAnalytics } from './analytics';
import { absoluteReturnTo, appPathFromReturnTo, loginPath, withoutQueryParams, withQueryParam } from './navigation';
import { finishTarget } from '../pages/identity/finish';

const origin = 'http://localhost:3000';

describe('navigation helpers', () => {
  it('builds the login path with return_to', () => {
    expect(loginPath('/projects/p/get-started?x=1')).toBe('/login?return_to=%2Fprojects%2Fp%2Fget-started%3Fx%3D1');
    expect(loginPath('/p', { aal: 'aal2' })).toBe('/login?aal=aal2&return_to=%2Fp');
  });
  it('accepts only our own origin as return_to', () => {
    expect(appPathFromReturnTo('http://localhost:3000/projects?a=1', '/', origin)).toBe('/projects?a=1');
    expect(appPathFromReturnTo('https://evil.example/projects', '/', origin)).toBe('/');
    expect(appPathFromReturnTo('//evil.example', '/', origin)).toBe('/');
    expect(appPathFromReturnTo(null, '/fallback', origin)).toBe('/fallback');
    expect(absoluteReturnTo('/projects', origin)).toBe('http://localhost:3000/projects');
    expect(absoluteReturnTo('javascript:alert(1)', origin)).toBeNull();
  });
  it('adds and removes query parameters', () => {
    expect(withQueryParam('/p?a=1', 'after-login', 'true')).toBe('/p?a=1&after-login=true');
    expect(withoutQueryParams('/p?a=1&after-login=true', ['after-login'])).toBe('/p?a=1');
    expect(withoutQueryParams('/p?a=1', ['after-login'])).toBe('/p?a=1');
  });
  it('finishes a login at the safe return_to, marked', () => {
    expect(finishTarget('after-login', ['/projects/p/get-started'], undefined, origin)).toBe('/projects/p/get-started?after-login=true');
    expect(finishTarget('after-registration', ['https://evil.example/'], undefined, origin)).toBe('/?after-registration=true');
    expect(finishTarget('after-login', ['/login?x=1'], undefined, origin)).toBe('/?after-login=true');
  });
});

describe('analytics', () => {
  it('records page views and identity when enabled', () => {
    const a = createAnalytics({ enabled: true, now: () => new Date('2026-01-01T00:00:00Z') });
    a.capturePageView('/projects');
    a.identify('u1', { email: 'a@example.com' });
    a.capture('project created', { name: 'x'.repeat(70_000) });
    expect(a.events().map((e) => e.event)).toEqual(['$pageview', '$identify', 'project created']);
    expect(a.events()[2]?.distinctId).toBe('u1');
    expect(String(a.events()[2]?.properties.name).length).toBe(65_535);
  });
  it('records nothing when disabled', () => {
    const a = createAnalytics({ enabled: false });
    a.capturePageView('/');
    expect(a.events()).toEqual([]);
  });
});
