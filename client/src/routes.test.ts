import { describe, expect, it } from 'vitest';
import { isProjectRoute, isWorkspaceRoute } from './lib/route-def';
import { NAV_GROUPS } from './nav/nav-model';
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

/** Pages beyond the spec's table: the configuration history and the audit log (issue: history, audit and export). */
const BEYOND_SPEC = ['/projects/:project/settings/history', '/projects/:project/settings/audit-log', '/workspaces/:workspace/settings/audit-log'];

describe('route registry', () => {
  it('holds every route of the spec, once, and the few beyond it', () => {
    const patterns = ROUTE_LIST.map((r) => r.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect([...patterns].sort()).toEqual([...new Set([...SPEC_ROUTES, ...BEYOND_SPEC])].sort());
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

  it('lets only identity and status pages, and the page an invite link opens, skip authentication', () => {
    const open = ROUTE_LIST.filter((r) => !r.requiresAuth).map((r) => r.pattern).sort();
    expect(open).toEqual(['/404', '/500', '/error', '/invites', '/login', '/oauth2/consent', '/recovery', '/registration', '/verification']);
  });

  it('marks the pages of this slice available and project routes as project-scoped', () => {
    const available = ROUTE_LIST.filter((r) => r.available).map((r) => r.pattern);
    expect(available).toContain('/projects/:project/settings');
    expect(available).toContain('/projects/:project/identities');
    expect(available).toContain('/projects/:project/identity-schema');
    expect(isProjectRoute(ROUTES.identities)).toBe(true);
    expect(isProjectRoute(ROUTES.projects)).toBe(false);
    expect(ROUTES.login.layout.minimalNavigation).toBe(true);
  });

  const byId = ROUTES as unknown as Record<string, (typeof ROUTE_LIST)[number]>;
  const inApp = ROUTE_LIST.filter((r) => isProjectRoute(r) || isWorkspaceRoute(r));

  it('puts every project and workspace page in a sidebar group, with an icon, or under a parent page', () => {
    const groups = new Set(NAV_GROUPS.map((g) => g.id));
    for (const route of inApp) {
      const nav = route.nav;
      expect(nav, route.pattern).toBeDefined();
      if (nav?.group) {
        expect(groups.has(nav.group), route.pattern).toBe(true);
        expect(nav.icon, route.pattern).toBeDefined();
      } else {
        expect(nav?.parent, route.pattern).toBeDefined();
      }
    }
  });

  it('gives detail routes (with an id parameter) a parent, never a sidebar item', () => {
    const details = inApp.filter((r) => (r.pattern.match(/:/g) ?? []).length > 1);
    expect(details.map((r) => r.id).sort()).toEqual(['emailMessage', 'identity', 'organization', 'samlProvider', 'session', 'socialProvider'].sort());
    for (const route of details) {
      expect(route.nav?.group, route.pattern).toBeUndefined();
      const parent = byId[route.nav?.parent ?? ''];
      expect(parent, route.pattern).toBeDefined();
      expect(route.pattern.startsWith(parent!.pattern), route.pattern).toBe(true);
    }
  });

  it('names existing routes as parents, without cycles', () => {
    for (const route of ROUTE_LIST) {
      const seen = new Set<string>();
      let current = route;
      while (current.nav?.parent) {
        expect(seen.has(current.id), route.pattern).toBe(false);
        seen.add(current.id);
        const parent = byId[current.nav.parent];
        expect(parent, `${route.pattern} → ${current.nav.parent}`).toBeDefined();
        current = parent!;
      }
    }
  });

  it('describes every page not built yet in one sentence', () => {
    for (const route of ROUTE_LIST.filter((r) => !r.available)) {
      const description = route.nav?.description ?? '';
      expect(description, route.pattern).toMatch(/^[A-Z].*\.$/);
      expect(description.split(/\.\s/).length, route.pattern).toBe(1);
    }
  });

  it('keeps registry ids on the entries and unique labels within each group', () => {
    for (const [id, route] of Object.entries(byId)) expect(route.id).toBe(id);
    for (const group of NAV_GROUPS) {
      const labels = ROUTE_LIST.filter((r) => r.nav?.group === group.id).map((r) => r.nav?.label);
      expect(new Set(labels).size, group.id).toBe(labels.length);
    }
  });
});
