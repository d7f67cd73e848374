import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Link, useLocation } from 'wouter';
import type { RouteDef } from '../lib/route-def';
import { ROUTE_LIST } from '../routes';
import { ProjectSwitcher, WorkspaceSwitcher } from '../shell/Switchers';
import { usePendingInvites } from '../shell/use-pending-invites';
import { activeHref, routeScope, sidebarModel, SOON_GROUP, type NavItem, type NavSection, type ScopeParams } from './nav-model';
import { OverflowTooltip } from './OverflowTooltip';
import { useOverlays } from './use-overlays';

const COLLAPSED_KEY = 'console-nav-collapsed';
/** Groups that start collapsed: the 'soon' group stays folded until opened, and the choice is remembered. */
const OPENED_KEY = 'console-nav-opened';
const COLLAPSED_BY_DEFAULT = new Set<string>([SOON_GROUP.id]);

function readSet(key: string): Set<string> {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(key) ?? '[]');
    return new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

function readCollapsed(): Set<string> {
  const opened = readSet(OPENED_KEY);
  return new Set([...readSet(COLLAPSED_KEY), ...[...COLLAPSED_BY_DEFAULT].filter((id) => !opened.has(id))]);
}

function useCollapsedGroups(activeGroup: string | undefined): [Set<string>, (id: string) => void] {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const save = (next: Set<string>) => {
    setCollapsed(next);
    try {
      window.localStorage.setItem(COLLAPSED_KEY, JSON.stringify([...next].filter((id) => !COLLAPSED_BY_DEFAULT.has(id))));
      window.localStorage.setItem(OPENED_KEY, JSON.stringify([...COLLAPSED_BY_DEFAULT].filter((id) => !next.has(id))));
    } catch {
      // Storage may be disabled; the choice holds for this visit.
    }
  };
  // Arriving on a page of a collapsed group opens it, so the current item is always in view.
  useEffect(() => {
    if (activeGroup && collapsed.has(activeGroup)) {
      const next = new Set(collapsed);
      next.delete(activeGroup);
      save(next);
    }
    // Only a change of page reopens a group; collapsing the current one by hand stays collapsed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeGroup]);
  const toggle = (id: string) => {
    const next = new Set(collapsed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    save(next);
  };
  return [collapsed, toggle];
}

/** A count beside an entry (pending invites), by route id. */
type Counts = Partial<Record<string, number>>;

function SidebarLink({ item, active, count, onNavigate }: { item: NavItem; active: boolean; count: number; onNavigate?: (() => void) | undefined }) {
  const icon = item.route.nav?.icon;
  const overlays = useOverlays();
  const Icon = icon && overlays ? overlays.NAV_ICONS[icon] : undefined;
  return (
    <li>
      <OverflowTooltip text={item.label}>
        <Link href={item.href} className={active ? 'nav-link nav-link-current' : 'nav-link'} aria-current={active ? 'page' : undefined} data-testid={item.testId} onClick={onNavigate}>
          {Icon ? <Icon className="nav-icon" aria-hidden="true" size={16} /> : icon && <span className="nav-icon nav-icon-pending" aria-hidden="true" />}
          <span className="truncate nav-label">{item.label}</span>
          {count > 0 && (
            <span className="nav-soon nav-count" data-testid={`${item.testId}-count`}>
              {count}
              <span className="sr-only"> pending</span>
            </span>
          )}
          {item.soon && (
            <span className="nav-soon" data-testid="nav-soon">
              Soon
            </span>
          )}
        </Link>
      </OverflowTooltip>
    </li>
  );
}

function SidebarGroup({ section, open, onToggle, active, counts, onNavigate }: { section: NavSection; open: boolean; onToggle: () => void; active: string | null; counts: Counts; onNavigate?: (() => void) | undefined }) {
  const listId = useId();
  return (
    <div className="nav-group" data-testid={`nav-group-${section.group.id}`}>
      <h2 className="nav-group-heading">
        <button type="button" className="nav-group-toggle" aria-expanded={open} aria-controls={listId} onClick={onToggle} data-testid={`nav-group-toggle-${section.group.id}`}>
          <span>{section.group.label}</span>
          <ChevronDown aria-hidden="true" size={14} className="nav-group-chevron" />
        </button>
      </h2>
      <ul id={listId} hidden={!open}>
        {section.items.map((item) => (
          <SidebarLink key={item.route.id} item={item} active={item.href === active} count={counts[item.route.id] ?? 0} onNavigate={onNavigate} />
        ))}
      </ul>
    </div>
  );
}

const SCOPE_LABEL = { project: 'Project', workspace: 'Workspace', console: 'Console' } as const;

/** What the user does to scroll the sidebar themselves. */
const OWN_SCROLL_EVENTS = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/**
 * Keeps the current item in view: a page deep in a long sidebar scrolls its link into sight. Whether the
 * link is in view is asked of an IntersectionObserver, which answers after the browser's own layout: a
 * direct measure would force a layout of the whole frame before its first paint. It keeps watching, so a
 * frame that grows above the link after that first answer (a switcher whose data comes in) cannot push it
 * out of sight, until the user scrolls or uses the sidebar themselves: from then on, where it sits is theirs.
 */
function useActiveInView(container: RefObject<HTMLDivElement | null>, active: string | null, open: boolean) {
  useEffect(() => {
    if (!active || !open) return;
    const element = container.current;
    const link = element?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!element || !link || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry && entry.intersectionRatio < 1) link.scrollIntoView({ block: 'nearest' });
      },
      { threshold: 1 },
    );
    const stop = () => {
      observer.disconnect();
      for (const type of OWN_SCROLL_EVENTS) element.removeEventListener(type, stop, true);
    };
    for (const type of OWN_SCROLL_EVENTS) element.addEventListener(type, stop, { capture: true, passive: true });
    observer.observe(link);
    return stop;
  }, [container, active, open]);
}

/**
 * The sidebar, generated from the route registry: the switchers, then the current project's or
 * workspace's groups, then the console's own pages, each with only what is built; every page not built
 * yet waits in one collapsed "Coming soon" group at the end. The item the location lies under is
 * highlighted and scrolled into view.
 */
export function Sidebar({ route, params, onNavigate }: { route: RouteDef; params: ScopeParams; onNavigate?: () => void }) {
  const [location] = useLocation();
  const scope = routeScope(route);
  const { scoped, general, soon } = sidebarModel(ROUTE_LIST, scope, params);
  const all = [...scoped, ...general, ...(soon ? [soon] : [])];
  const active = activeHref(location, all.flatMap((s) => s.items.map((i) => i.href)));
  const activeGroup = all.find((s) => s.items.some((i) => i.href === active))?.group.id;
  const [collapsed, toggle] = useCollapsedGroups(activeGroup);
  const content = useRef<HTMLDivElement>(null);
  const counts: Counts = { invites: usePendingInvites() };
  useActiveInView(content, active, !activeGroup || !collapsed.has(activeGroup));
  const group = (section: NavSection) => (
    <SidebarGroup key={section.group.id} section={section} open={!collapsed.has(section.group.id)} onToggle={() => toggle(section.group.id)} active={active} counts={counts} onNavigate={onNavigate} />
  );
  return (
    <div className="sidebar-content" ref={content}>
      <div className="sidebar-switchers">
        <WorkspaceSwitcher workspaceId={params.workspace} />
        <ProjectSwitcher />
      </div>
      {scoped.length > 0 && (
        <nav aria-label={SCOPE_LABEL[scope]} className="nav" data-testid={`sidebar-nav-${scope}`}>
          {scoped.map(group)}
        </nav>
      )}
      <nav aria-label={SCOPE_LABEL.console} className="nav" data-testid="sidebar-nav-console">
        {general.map(group)}
      </nav>
      {soon && (
        <nav aria-label={SOON_GROUP.label} className="nav" data-testid="sidebar-nav-soon">
          {group(soon)}
        </nav>
      )}
    </div>
  );
}
