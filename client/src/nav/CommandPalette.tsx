import { Command } from 'cmdk';
import { Briefcase, CornerDownLeft, Folder, Monitor, Moon, Plus, Sun } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { QUERY_RULES } from '../lib/query-client';
import type { RouteDef } from '../lib/route-def';
import { ROUTE_LIST, ROUTES } from '../routes';
import { useOptionalProject } from '../shell/ProjectContext';
import { useSwitchProject } from '../shell/Switchers';
import { trpc } from '../trpc';
import { NAV_ICONS, type NavIconName } from './nav-icons';
import { hrefFor, NAV_GROUPS, routeScope, type NavScope, type ScopeParams } from './nav-model';
import { setThemePreference } from './theme';

export interface PaletteProps {
  open: boolean;
  /** Where focus goes back to when the palette closes without opening a page. */
  returnFocus: () => void;
  onOpenChange: (open: boolean) => void;
  route: RouteDef;
  params: ScopeParams;
}

function filterByWords(_value: string, search: string, keywords?: string[]): number {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = (keywords ?? []).join(' ').toLowerCase();
  return words.every((w) => haystack.includes(w)) ? 1 : 0;
}

const GROUP_LABEL = new Map(NAV_GROUPS.map((g) => [g.id, g.label]));

/** The registry routes of a scope that the palette can open with the given parameters. */
function routeEntries(scope: NavScope, params: ScopeParams) {
  return ROUTE_LIST.flatMap((route) => {
    if (!route.nav || routeScope(route) !== scope || !route.requiresAuth) return [];
    const href = hrefFor(route, params);
    if (!href) return [];
    const group = route.nav.group ? GROUP_LABEL.get(route.nav.group) : undefined;
    return [{ route, href, group }];
  });
}

function NavIconOf({ name }: { name: NavIconName }) {
  const Icon = NAV_ICONS[name];
  return <Icon size={16} />;
}

function Item({ value, keywords, onSelect, icon, children, hint, testId }: { value: string; keywords: string[]; onSelect: () => void; icon?: ReactNode; children: ReactNode; hint?: string | undefined; testId: string }) {
  return (
    <Command.Item value={value} keywords={keywords} onSelect={onSelect} className="palette-item" data-testid={testId}>
      <span className="palette-icon" aria-hidden="true">
        {icon}
      </span>
      <span className="truncate palette-label">{children}</span>
      {hint && <span className="palette-hint">{hint}</span>}
    </Command.Item>
  );
}

/**
 * The command palette (⌘K / Ctrl+K): jumps to any page of the current project or workspace, to the
 * console's own pages, to any project or workspace, and runs a few actions.
 */
export default function CommandPalette({ open, returnFocus, onOpenChange, params }: PaletteProps) {
  const [, navigate] = useLocation();
  const navigated = useRef(false);
  const project = useOptionalProject();
  const projects = trpc.projects.list.useQuery(undefined, { ...QUERY_RULES.projectList, enabled: open });
  const workspaces = trpc.workspaces.list.useQuery(undefined, { ...QUERY_RULES.workspaceList, enabled: open });
  const active = trpc.projects.getActive.useQuery(undefined, { ...QUERY_RULES.activeProject, enabled: open && !params.project });
  const switchProject = useSwitchProject();

  const projectId = params.project ?? active.data?.projectId ?? undefined;
  const projectName = project?.current_revision.name ?? projects.data?.find((p) => p.id === projectId)?.name;
  const workspaceId = params.workspace ?? project?.workspace_id ?? undefined;
  const workspaceName = workspaces.data?.workspaces.find((w) => w.id === workspaceId)?.name;

  const go = (href: string) => {
    navigated.current = true;
    onOpenChange(false);
    navigate(href);
  };
  const run = (action: () => void) => {
    onOpenChange(false);
    action();
  };

  const projectRoutes = projectId ? routeEntries('project', { project: projectId }) : [];
  const workspaceRoutes = workspaceId ? routeEntries('workspace', { workspace: workspaceId }) : [];
  const consoleRoutes = routeEntries('console', {});
  const routeItem = ({ route: r, href, group }: { route: RouteDef; href: string; group: string | undefined }, scopeLabel: string) => (
    <Item
      key={r.id}
      value={`route:${r.id}`}
      keywords={[r.nav?.label ?? '', group ?? '', scopeLabel, ...(r.nav?.keywords ?? [])]}
      onSelect={() => go(href)}
      hint={r.available ? group : `${group ? `${group} · ` : ''}Soon`}
      testId={`palette-route-${r.id}`}
      icon={r.nav?.icon ? <NavIconOf name={r.nav.icon} /> : <CornerDownLeft size={16} />}
    >
      {r.nav?.label}
    </Item>
  );

  return (
    // Not modal: the page behind stays in the accessibility tree; Escape, a click outside or Tab
    // leaving the palette closes it.
    <Dialog.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <Dialog.Portal>
        <div className="palette-overlay" aria-hidden="true" />
        <Dialog.Content
          className="palette"
          aria-describedby={undefined}
          data-testid="palette"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!navigated.current) returnFocus();
            navigated.current = false;
          }}
        >
          <Dialog.Title className="sr-only">Command palette</Dialog.Title>
          <Command label="Search pages, projects and actions" loop filter={filterByWords}>
            <Command.Input className="palette-input" placeholder="Search pages, projects and actions…" data-testid="palette-input" />
            <Command.List className="palette-list" data-testid="palette-list">
              <Command.Empty className="palette-empty">Nothing matches.</Command.Empty>
              {projectRoutes.length > 0 && <Command.Group heading={projectName ? `Project · ${projectName}` : 'Project'}>{projectRoutes.map((e) => routeItem(e, 'project'))}</Command.Group>}
              {workspaceRoutes.length > 0 && (
                <Command.Group heading={workspaceName ? `Workspace · ${workspaceName}` : 'Workspace'}>{workspaceRoutes.map((e) => routeItem(e, 'workspace'))}</Command.Group>
              )}
              <Command.Group heading="Actions">
                <Item value="action:create-project" keywords={['Create project', 'new project', 'add']} onSelect={() => go(ROUTES.createProject.build({}))} icon={<Plus size={16} />} testId="palette-create-project">
                  Create project
                </Item>
                <Item value="action:create-workspace" keywords={['Create workspace', 'new workspace', 'add']} onSelect={() => go(ROUTES.createWorkspace.build({}))} icon={<Plus size={16} />} testId="palette-create-workspace">
                  Create workspace
                </Item>
                <Item value="action:theme-light" keywords={['Light theme', 'appearance']} onSelect={() => run(() => setThemePreference('light'))} icon={<Sun size={16} />} testId="palette-theme-light">
                  Use the light theme
                </Item>
                <Item value="action:theme-dark" keywords={['Dark theme', 'appearance']} onSelect={() => run(() => setThemePreference('dark'))} icon={<Moon size={16} />} testId="palette-theme-dark">
                  Use the dark theme
                </Item>
                <Item value="action:theme-system" keywords={['System theme', 'appearance', 'auto']} onSelect={() => run(() => setThemePreference('system'))} icon={<Monitor size={16} />} testId="palette-theme-system">
                  Follow the system theme
                </Item>
              </Command.Group>
              <Command.Group heading="Switch project">
                {(projects.data ?? []).map((p) => (
                  <Item
                    key={p.id}
                    value={`project:${p.id}`}
                    keywords={['Switch project', p.name]}
                    onSelect={() => {
                      navigated.current = true;
                      run(() => switchProject.mutate({ projectId: p.id }));
                    }}
                    icon={<Folder size={16} />}
                    hint={p.id === projectId ? 'Current' : undefined}
                    testId="palette-project"
                  >
                    {p.name}
                  </Item>
                ))}
              </Command.Group>
              <Command.Group heading="Workspaces">
                {(workspaces.data?.workspaces ?? []).flatMap((w) =>
                  w.id
                    ? [
                        <Item key={w.id} value={`workspace:${w.id}`} keywords={['Workspace', w.name]} onSelect={() => go(ROUTES.workspace.build({ workspace: w.id! }))} icon={<Briefcase size={16} />} testId="palette-workspace">
                          {w.name}
                        </Item>,
                      ]
                    : [],
                )}
              </Command.Group>
              <Command.Group heading="Console">{consoleRoutes.map((e) => routeItem(e, 'console'))}</Command.Group>
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
