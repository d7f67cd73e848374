import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { cloneElement, isValidElement, useEffect, useRef, useState, type ReactElement, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { clearOpenRequest, isOpenRequested } from './open-requests';

/**
 * Below 720 px the sidebar lives in a drawer (a Radix dialog): a menu button opens it, a link or
 * Escape closes it. After a navigation focus goes to the new page's heading, not back to the button.
 * Loaded with the frame's overlays; `trigger` is the menu button the frame already shows.
 */
export function DrawerImpl({ trigger: button, triggerRef: trigger, testId, children }: { trigger: ReactElement; triggerRef: RefObject<HTMLButtonElement | null>; testId: string; children: ReactElement<{ onNavigate?: () => void }> }) {
  const [open, setOpen] = useState(() => isOpenRequested(testId));
  const [location] = useLocation();
  const navigated = useRef(false);
  const opened = useRef(location);
  useEffect(() => clearOpenRequest(testId), [testId]);
  useEffect(() => {
    // A drawer asked for before the code arrived stays open; a later navigation closes it.
    if (location !== opened.current) setOpen(false);
    opened.current = location;
  }, [location]);
  const onNavigate = () => {
    navigated.current = true;
    setOpen(false);
  };
  return (
    // Not modal: the page stays in the accessibility tree; Escape, a click outside or Tab leaving the
    // drawer closes it.
    <Dialog.Root open={open} onOpenChange={setOpen} modal={false}>
      <Dialog.Trigger asChild>{button}</Dialog.Trigger>
      <Dialog.Portal>
        <div className="drawer-overlay" aria-hidden="true" />
        <Dialog.Content
          className="drawer"
          aria-describedby={undefined}
          data-testid="drawer"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!navigated.current) trigger.current?.focus();
            navigated.current = false;
          }}
        >
          <div className="drawer-header">
            <Dialog.Title className="drawer-title">Navigation</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="topbar-button" aria-label="Close navigation" data-testid="drawer-close">
                <X aria-hidden="true" size={20} />
              </button>
            </Dialog.Close>
          </div>
          {isValidElement(children) ? cloneElement(children, { onNavigate }) : children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
