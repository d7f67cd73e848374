import { describe, expect, it } from 'vitest';
import { isProjectRoute } from './lib/route-def';
import { ROUTE_LIST, ROUTES } from './routes';

/** Spec §2's route table, written out in full ({param} → :param). */
const SPEC_ROUTES = [
  '/', '/404', '/500', '/error', '/support', '/login', '/oauth2/consent', '/recovery', '/verification', '/registration',
  '/settings', '/settings/advanced', '/get-started', '/invites', '/projects', '/projects/create',
  ...['activity', 'activity/events', 'connect', 'developers', 'developers/actions', 'get-started'],
  ...['settings', 'browser-redirects', 'settings/billing', 'settings/collaborators', 'settings/advanced', 'custom-domains', 'limits', 'session-settings', 'ui'],
  ...['passwordless', 'mfa', 'authentication', 'authentication/recovery', 'authentication/verification', 'authentication/sessions', 'authentication/organizations', 'authentication/organizations/:id'],
  ...['sms-configuration', 'email-configuration', 'email-templates', 'email-delivery', 'email-delivery/:id'],
  ...['identities', 'identities/:identity', 'sessions', 'sessions/:session', 'identity-schema'],
  ...['permissions/relationships', 'permissions/configuration'],
  ...['social-signin', 'social-signin/:provider', 'saml', 'saml/:provider'],
  ...['oauth', 'oauth/endpoints', 'oauth/configure', 'oauth/openid', 'oauth/urls', 'oauth/lifespans', 'oauth/strategies', 'oauth/cookies'],
  ...['account-experience', 'account-experience/theming', 'account-experience/theming/customize'],
  '/workspaces', '/workspaces/create', '/workspaces/:workspace', '/workspaces/:workspace/projects',
  ...['settings', 'settings/members', 'settings/subscription', 'settings/api-keys', 'settings/billing'].map((s) => `/workspaces/:workspace/${s}`),
].map((p) => (p.startsWith('/') ? p : `/projects/:project/${p}`));

describe('route registry', () => {
  it('holds every route of the spec, once', () => {
    const patterns = ROUTE_LIST.map((r) => r.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect([...patterns].sort()).toEqual([...new Set(SPEC_ROUTES)].sort());
  });

  it('lists static routes before parameterised ones', () => {
    const firstDynamic = ROUTE_LIST.findIndex((r) => r.pattern.includes(':'));
    expect(ROUTE_LIST.slice(firstDynamic).every((r) => r.pattern.includes(':'))).toBe(true);
  });

  it('builds paths with encoded parameters', () => {
    expect(ROUTES.getStarted.build({ project: 'abc' })).toBe('/projects/abc/get-started');
    expect(ROUTES.organization.build({ project: 'p', id: 'a b' })).toBe('/projects/p/authentication/organizations/a%20b');
    expect(ROUTES.workspaceSettings.build({ workspace: 'w' })).toBe('/workspaces/w/settings');
    expect(() => ROUTES.getStarted.build({ project: '' })).toThrow(/Missing route parameter project/);
  });

  it('lets only identity and status pages skip authentication', () => {
    const open = ROUTE_LIST.filter((r) => !r.requiresAuth).map((r) => r.pattern).sort();
    expect(open).toEqual(['/404', '/500', '/error', '/login', '/oauth2/consent', '/recovery', '/registration', '/verification']);
  });

  it('marks the pages of this slice available and project routes as project-scoped', () => {
    const available = ROUTE_LIST.filter((r) => r.available).map((r) => r.pattern);
    expect(available).toContain('/projects/:project/settings');
    expect(available).not.toContain('/projects/:project/identities');
    expect(isProjectRoute(ROUTES.identities)).toBe(true);
    expect(isProjectRoute(ROUTES.projects)).toBe(false);
    expect(ROUTES.login.layout.minimalNavigation).toBe(true);
  });
});
