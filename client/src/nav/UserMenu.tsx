import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { logout } from '../lib/logout';
import { ROUTES } from '../routes';
import { showError } from '../shell/error-toast';
import { sessionIdentity, useSession } from '../shell/use-session';
import { requestOpen, useOverlays } from './use-overlays';
import { useThemePreference } from './use-theme';

const TEST_ID = 'user-menu';

/** The signed-in user's menu: account settings, the theme (light, dark, system) and sign out. */
export function UserMenu() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const [theme, setTheme] = useThemePreference();
  const overlays = useOverlays();
  const traits = sessionIdentity(session.data)?.traits;
  const name = traits?.name || traits?.email || 'Account';

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

  const trigger = (
    <button type="button" className="topbar-button user-button" aria-haspopup="menu" onClick={overlays ? undefined : () => requestOpen(TEST_ID)} data-testid={TEST_ID}>
      <span className="avatar" aria-hidden="true">
        {name.slice(0, 1).toUpperCase()}
      </span>
      <span className="sr-only">Account menu: </span>
      <span className="truncate user-name">{name}</span>
    </button>
  );
  if (!overlays) return trigger;
  return (
    <overlays.UserMenuDropdown
      trigger={trigger}
      testId={TEST_ID}
      name={name}
      email={traits?.email}
      theme={theme}
      onTheme={setTheme}
      onAccount={() => navigate(ROUTES.accountSettings.build({}))}
      onSignOut={() => void signOut()}
      busy={busy}
    />
  );
}
