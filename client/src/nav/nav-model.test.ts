import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../lib/route-def';
import { ROUTE_LIST, ROUTES } from '../routes';
import { activeHref, breadcrumbs, documentTitle, hrefFor, isUnder, navSections, navTestId, routeScope, routeTrail, sidebarModel } from './nav-model';

const byId = ROUTES as unknown as Record<string, RouteDef>;

describe('sidebar sections', () => {
  it('lists the project groups in order, each item linked for the project', () => {
    const sections = navSections(ROUTE_LIST, 'project', { project: 'p1' });
    expect(sections.map((s) => s.group.label)).toEqual([
      'Overview',
      'Identities',
      'Authentication',
      'Social & SAML',
      'OAuth2',
      'Permissions',
      'Messaging',
      'Account experience',
      'Activity & developers',
      'Project settings',
    ]);
    const identities = sections.find((s) => s.group.id === 'identities');
    expect(identities?.items.map((i) => [i.label, i.href, i.soon])).toEqual([
      ['Identities', '/projects/p1/identities', false],
      ['Sessions', '/projects/p1/sessions', false],
      ['Identity schema', '/projects/p1/identity-schema', false],
    ]);
    const settings = sections.find((s) => s.group.id === 'project-settings');
    expect(settings?.items[0]).toMatchObject({ label: 'General', href: '/projects/p1/settings', soon: false, testId: 'nav-project-settings' });
  });

  it('covers every project route without an id parameter or a parent page exactly once', () => {
    const hrefs = navSections(ROUTE_LIST, 'project', { project: 'p1' }).flatMap((s) => s.items.map((i) => i.href));
    const expected = ROUTE_LIST.filter((r) => routeScope(r) === 'project' && (r.pattern.match(/:/g) ?? []).length === 1 && !r.nav?.parent).map((r) => r.build({ project: 'p1' } as never));
    expect([...hrefs].sort()).toEqual([...expected].sort());
  });

  it('gives the workspace its own group: overview, projects, members, API keys, subscription, billing, audit log, settings', () => {
    const [section] = navSections(ROUTE_LIST, 'workspace', { workspace: 'w1' });
    expect(section?.items.map((i) => i.label)).toEqual(['Overview', 'Projects', 'Members', 'API keys', 'Subscription', 'Billing', 'Audit log', 'Settings']);
    expect(section?.items.at(-1)?.testId).toBe('nav-workspace-settings');
  });

  it('leaves out items whose parameters the scope does not have', () => {
    expect(navSections(ROUTE_LIST, 'project', {})).toEqual([]);
    expect(hrefFor(ROUTES.identity, { project: 'p' })).toBeNull();
    expect(hrefFor(ROUTES.identities, { project: 'a b' })).toBe('/projects/a%20b/identities');
  });

  it('derives test ids from registry ids', () => {
    expect(navTestId('getStarted')).toBe('nav-get-started');
    expect(navTestId('projects')).toBe('nav-projects');
  });
});

describe('what the sidebar shows', () => {
  const labels = (model: ReturnType<typeof sidebarModel>) => [...model.scoped, ...model.general, ...(model.soon ? [model.soon] : [])].flatMap((s) => s.items.map((i) => i.label));

  it('puts every page in its group; with every page of the spec built, there is no group of pages to come', () => {
    const model = sidebarModel(ROUTE_LIST, 'project', { project: 'p1' });
    expect(model.scoped.map((s) => s.group.label)).toEqual(['Overview', 'Identities', 'Authentication', 'Social & SAML', 'OAuth2', 'Permissions', 'Messaging', 'Account experience', 'Activity & developers', 'Project settings']);
    expect(model.scoped.flatMap((s) => s.items).every((i) => !i.soon)).toBe(true);
    expect(model.general.map((s) => s.items.map((i) => i.label))).toEqual([['All projects', 'All workspaces', 'Invites', 'Guided tour', 'Support']]);
    expect(model.soon).toBeNull();
    // Nothing is lost: every entry of the groups is in the sidebar once.
    const everything = [...navSections(ROUTE_LIST, 'project', { project: 'p1' }), ...navSections(ROUTE_LIST, 'console', {})].flatMap((s) => s.items.map((i) => i.href));
    expect(labels(model)).toHaveLength(everything.length);
  });

  it('never shows two entries with the same label, in any scope', () => {
    for (const model of [sidebarModel(ROUTE_LIST, 'project', { project: 'p1' }), sidebarModel(ROUTE_LIST, 'workspace', { workspace: 'w1' }), sidebarModel(ROUTE_LIST, 'console', {})]) {
      const all = labels(model);
      expect(all.filter((label, i) => all.indexOf(label) !== i)).toEqual([]);
    }
  });
});

describe('highlighting by route prefix', () => {
  const hrefs = ['/projects', '/projects/p/identities', '/projects/p/settings', '/projects/p/settings/billing', '/workspaces/w'];

  it('matches whole segments only', () => {
    expect(isUnder('/projects/p/identities/i1', '/projects/p/identities')).toBe(true);
    expect(isUnder('/projects/p/identities-x', '/projects/p/identities')).toBe(false);
    expect(isUnder('/projects/p/identities', '/projects/p/identities')).toBe(true);
  });

  it('picks the longest item the location lies under', () => {
    expect(activeHref('/projects/p/identities/i1', hrefs)).toBe('/projects/p/identities');
    expect(activeHref('/projects/p/settings/billing', hrefs)).toBe('/projects/p/settings/billing');
    expect(activeHref('/projects/p/settings', hrefs)).toBe('/projects/p/settings');
    expect(activeHref('/projects/create', hrefs)).toBe('/projects');
    expect(activeHref('/workspaces/w/settings/members', hrefs)).toBe('/workspaces/w');
    expect(activeHref('/settings', hrefs)).toBeNull();
  });
});

describe('breadcrumbs and titles', () => {
  it('walks a detail page up to its parent, under the project', () => {
    expect(routeTrail(ROUTES.identity, byId).map((r) => r.id)).toEqual(['identities', 'identity']);
    expect(breadcrumbs(ROUTES.identity, byId, { params: { project: 'p' }, projectName: 'My project' })).toEqual([
      { label: 'Projects', href: '/projects' },
      { label: 'My project', href: '/projects/p/get-started' },
      { label: 'Identities', href: '/projects/p/identities' },
      { label: 'Identity' },
    ]);
  });

  it('roots workspace pages in the workspace and console pages in their parents', () => {
    expect(breadcrumbs(ROUTES.workspaceMembers, byId, { params: { workspace: 'w' }, workspaceName: 'Acme' })).toEqual([
      { label: 'Workspaces', href: '/workspaces' },
      { label: 'Acme', href: '/workspaces/w' },
      { label: 'Members' },
    ]);
    expect(breadcrumbs(ROUTES.createProject, byId, { params: {} })).toEqual([{ label: 'Projects', href: '/projects' }, { label: 'Create project' }]);
    expect(breadcrumbs(ROUTES.projects, byId, { params: {} })).toEqual([{ label: 'Projects' }]);
  });

  it('names the page, then the project, then the product', () => {
    expect(documentTitle('Console', 'Identities', 'My project')).toBe('Identities · My project · Console');
    expect(documentTitle('Console', 'Projects', undefined)).toBe('Projects · Console');
    expect(documentTitle('Console', 'Console')).toBe('Console');
  });
});
