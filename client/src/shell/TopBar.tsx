import type { ReactElement } from 'react';
import { Link } from 'wouter';
import type { LayoutOptions, RouteDef } from '../lib/route-def';
import { Drawer } from '../nav/Drawer';
import { HelpMenu } from '../nav/HelpMenu';
import type { ScopeParams } from '../nav/nav-model';
import { PaletteButton } from '../nav/PaletteButton';
import { UserMenu } from '../nav/UserMenu';

/**
 * The top bar: on narrow screens the drawer's menu button, the logo, then the palette button, the
 * help menu and the user menu. It never wraps; what does not fit shrinks to an icon.
 */
export function TopBar({ route, params, layout, drawer }: { route: RouteDef; params: ScopeParams; layout: LayoutOptions; drawer: ReactElement<{ onNavigate?: () => void }> | null }) {
  return (
    <header className="topbar">
      {drawer && <Drawer>{drawer}</Drawer>}
      <Link href={layout.logoLink ?? '/'} className="logo" data-testid="logo-link">
        <span className="logo-mark" aria-hidden="true">
          ◆
        </span>{' '}
        Console
      </Link>
      {drawer && (
        <div className="topbar-actions">
          <PaletteButton route={route} params={params} />
          <HelpMenu />
          <UserMenu />
        </div>
      )}
    </header>
  );
}
