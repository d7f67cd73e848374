import { Menu } from 'lucide-react';
import { useRef, type ReactElement } from 'react';
import { requestOpen, useOverlays } from './use-overlays';

const TEST_ID = 'drawer-button';

/**
 * The narrow screen's navigation: the menu button is here from the first paint; the drawer it opens (a Radix
 * dialog) comes with the frame's overlays, so its code is not part of the initial JS.
 */
export function Drawer({ children }: { children: ReactElement<{ onNavigate?: () => void }> }) {
  const overlays = useOverlays();
  const ref = useRef<HTMLButtonElement>(null);
  const trigger = (
    <button
      ref={ref}
      type="button"
      className="topbar-button drawer-button"
      aria-label="Open navigation"
      onPointerDown={overlays ? undefined : () => requestOpen(TEST_ID)}
      onClick={overlays ? undefined : () => requestOpen(TEST_ID)}
      data-testid={TEST_ID}
    >
      <Menu aria-hidden="true" size={20} />
    </button>
  );
  if (!overlays) return trigger;
  return (
    <overlays.DrawerImpl trigger={trigger} triggerRef={ref} testId={TEST_ID}>
      {children}
    </overlays.DrawerImpl>
  );
}
