import { describe, expect, it } from 'vitest';
import {
  isAuthenticated,
  LOGIN_PATH,
  SHELL_QUERY_PARAMS,
  loginRedirectPath,
  mustSendToLogin,
  readShellQuery,
  sessionForbiddenRedirect,
  SIGN_UP_DATA_LAYER_EVENT,
} from './shell';

const none = { afterRecovery: false, afterLogin: false, afterRegistration: false, preferredPlan: null, search: '' };

describe('readShellQuery', () => {
  it.each([
    ['', {}],
    ['?after-recovery=true', { afterRecovery: true, search: '?after-recovery=true' }],
    ['after-recovery=false', { search: '?after-recovery=false' }],
    ['?after-recovery=TRUE', { search: '?after-recovery=TRUE' }],
    ['?after-login=true&tab=1', { afterLogin: true, search: '?tab=1' }],
    ['?after-registration=true', { afterRegistration: true }],
    ['?after-login=true&after-registration=true', { afterLogin: true, afterRegistration: true }],
    ['?after-login=1&after-registration=yes', {}],
    ['?preferred_plan=Growth%400', { preferredPlan: 'Growth@0', search: '?preferred_plan=Growth%400' }],
    ['?preferred_plan=', { search: '?preferred_plan=' }],
  ])('%j', (search, expected) => {
    expect(readShellQuery(search)).toEqual({ ...none, ...expected });
  });
});

describe('isAuthenticated', () => {
  it.each([
    [{ active: true }, true],
    [{ active: false }, false],
    [{ active: null }, false],
    [{}, false],
    [null, false],
    [undefined, false],
  ])('%j → %s', (session, expected) => {
    expect(isAuthenticated(session)).toBe(expected);
  });
});

describe('mustSendToLogin', () => {
  it.each([
    [true, true, false, true],
    [true, true, true, false],
    [true, false, false, false],
    [false, true, false, false],
  ])('requiresAuth %s, fetched %s, authenticated %s → %s', (requiresAuth, sessionFetched, authenticated, expected) => {
    expect(mustSendToLogin({ requiresAuth, sessionFetched, authenticated })).toBe(expected);
  });
});

describe('loginRedirectPath', () => {
  it.each([
    ['/', '/login?return_to=%2F'],
    ['/projects/abc/settings', '/login?return_to=%2Fprojects%2Fabc%2Fsettings'],
    ['/projects?x=1&y=2#h', '/login?return_to=%2Fprojects%3Fx%3D1%26y%3D2%23h'],
  ])('%j → %s', (path, expected) => {
    expect(loginRedirectPath(path)).toBe(expected);
    expect(new URLSearchParams(expected.split('?')[1]).get('return_to')).toBe(path);
  });
});

describe('sessionForbiddenRedirect', () => {
  it.each([
    [403, '/projects', '/login?aal=aal2'],
    [403, '/', '/login?aal=aal2'],
    [403, '/loginx', '/login?aal=aal2'],
    [403, '/login', null],
    [403, '/login/', null],
    [401, '/projects', null],
    [500, '/projects', null],
    [undefined, '/projects', null],
  ])('%j on %s → %j', (status, pathname, expected) => {
    expect(sessionForbiddenRedirect(status, pathname)).toBe(expected);
  });
});

describe('shell names', () => {
  it('are the spec names', () => {
    expect(SHELL_QUERY_PARAMS).toEqual({
      afterRecovery: 'after-recovery',
      afterLogin: 'after-login',
      afterRegistration: 'after-registration',
      preferredPlan: 'preferred_plan',
      returnTo: 'return_to',
      aal: 'aal',
    });
    expect(LOGIN_PATH).toBe('/login');
    expect(SIGN_UP_DATA_LAYER_EVENT).toBe('sign_up');
  });
});
