import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '../components/Button';
import { Nav } from '../components/Nav';
import { logout } from '../lib/logout';
import type { LayoutOptions } from '../lib/route-def';
import { ROUTES } from '../routes';
import { showError } from './error-toast';
import { ProjectSwitcher, WorkspaceSwitcher } from './Switchers';
import { sessionIdentity, useSession } from './use-session';

export function TopBar({ layout, signedIn }: { layout: LayoutOptions; signedIn: boolean }) {
  const session = useSession(signedIn);
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const traits = sessionIdentity(session.data)?.traits;
  const showMenu = signedIn && layout.navbarMenu !== false && !layout.minimalNavigation;

  const signOut = async () => {
    setBusy(true);
    try {
      await logout();
      queryClient.clear();
      navigate(ROUTES.login.build({}));
    } catch (error) {
      showError(error, 'Could not sign out');
    } finally {
      setBusy(false);
    }
  };

  return (
    <header className="topbar">
      <Link href={layout.logoLink ?? '/'} className="logo" data-testid="logo-link">
        <span className="logo-mark" aria-hidden="true">◆</span> Console
      </Link>
      {showMenu && (
        <>
          <div className="topbar-switchers">
            <WorkspaceSwitcher />
            <ProjectSwitcher />
          </div>
          <Nav
            label="Main"
            orientation="horizontal"
            items={[
              { label: 'Projects', href: ROUTES.projects.build({}), testId: 'nav-projects' },
              { label: 'Workspaces', href: ROUTES.workspaces.build({}), testId: 'nav-workspaces' },
            ]}
          />
          <div className="topbar-user">
            <Link href={ROUTES.accountSettings.build({})} className="topbar-user-name" data-testid="account-link">
              {traits?.name || traits?.email || 'Account'}
            </Link>
            <Button variant="ghost" busy={busy} onClick={() => void signOut()} data-testid="sign-out">
              Sign out
            </Button>
          </div>
        </>
      )}
    </header>
  );
}
