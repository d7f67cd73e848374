import { ExternalLink, LogOut, MessageSquare, Monitor, Moon, Sun, UserCog } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useEffect, useState, type ReactElement } from 'react';
import { EXTERNAL_LINKS, HELP_LINKS } from '../../../shared/external-links';
import { OverflowTooltipImpl } from './OverflowTooltipImpl';
import { parseThemePreference, type ThemePreference } from './theme';
import { clearOpenRequest, isOpenRequested } from './open-requests';

function useRequestedOpen(testId: string) {
  const state = useState(() => isOpenRequested(testId));
  useEffect(() => clearOpenRequest(testId), [testId]);
  return state;
}

/*
 * Menus are not modal (WAI-ARIA menu pattern): the page stays in the accessibility tree while one is
 * open. They render in place (no portal), inside the top bar's banner landmark.
 */
const THEMES = [
  { value: 'light', label: 'Light', Icon: Sun },
  { value: 'dark', label: 'Dark', Icon: Moon },
  { value: 'system', label: 'System', Icon: Monitor },
] as const;

export interface UserMenuDropdownProps {
  trigger: ReactElement;
  testId: string;
  name: string;
  email: string | undefined;
  theme: ThemePreference;
  onTheme: (theme: ThemePreference) => void;
  onAccount: () => void;
  onSignOut: () => void;
  busy: boolean;
}

/** The user menu (Radix DropdownMenu): account settings, the theme radio group, sign out. */
export function UserMenuDropdown({ trigger, testId, name, email, theme, onTheme, onAccount, onSignOut, busy }: UserMenuDropdownProps) {
  const [open, setOpen] = useRequestedOpen(testId);
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <OverflowTooltipImpl text={name}>
        <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      </OverflowTooltipImpl>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6} collisionPadding={8} data-testid={`${testId}-content`}>
          <DropdownMenu.Label className="menu-label">
            <span className="truncate menu-user" title={name}>
              {name}
            </span>
            {email && email !== name && (
              <span className="truncate menu-muted" title={email}>
                {email}
              </span>
            )}
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={onAccount} data-testid="account-link">
            <UserCog aria-hidden="true" size={16} /> Account settings
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Label className="menu-label menu-muted">Theme</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => onTheme(parseThemePreference(value))}>
            {THEMES.map(({ value, label, Icon }) => (
              <DropdownMenu.RadioItem key={value} value={value} className="menu-item" data-testid={`theme-${value}`}>
                <Icon aria-hidden="true" size={16} /> {label}
                <DropdownMenu.ItemIndicator className="menu-indicator">✓</DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" disabled={busy} onSelect={onSignOut} data-testid="sign-out">
            <LogOut aria-hidden="true" size={16} /> Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

/** The help menu (Radix DropdownMenu): the support page and the spec's external links. */
export function HelpMenuDropdown({ trigger, testId, onSupport }: { trigger: ReactElement; testId: string; onSupport: () => void }) {
  const [open, setOpen] = useRequestedOpen(testId);
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6} collisionPadding={8} data-testid={`${testId}-content`}>
          <DropdownMenu.Item className="menu-item" onSelect={onSupport} data-testid="help-support">
            <MessageSquare aria-hidden="true" size={16} /> Support
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          {HELP_LINKS.map(({ id, label }) => (
            <DropdownMenu.Item key={id} className="menu-item" asChild>
              <a href={EXTERNAL_LINKS[id]} target="_blank" rel="noreferrer noopener" data-testid={`help-${id}`}>
                {label}
                <ExternalLink aria-hidden="true" size={14} className="menu-trailing" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
