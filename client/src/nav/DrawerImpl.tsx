import { Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { cloneElement, isValidElement, useEffect, useRef, useState, type ReactElement } from 'react';
import { useLocation } from 'wouter';

/**
 * Below 720 px the sidebar lives in a drawer (a Radix dialog): a menu button opens it, a link or
 * Escape closes it. After a navigation focus goes to the new page's heading, not back to the button.
 */
export function Drawer({ children }: { children: ReactElement<{ onNavigate?: () => void }> }) {
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  const navigated = useRef(false);
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    setOpen(false);
  }, [location]);
  const onNavigate = () => {
    navigated.current = true;
    setOpen(false);
  };
  return (
    // Not modal: the page stays in the accessibility tree; Escape, a click outside or Tab leaving the
    // drawer closes it.
    <Dialog.Root open={open} onOpenChange={setOpen} modal={false}>
      <Dialog.Trigger asChild>
        <button ref={trigger} type="button" className="topbar-button drawer-button" aria-label="Open navigation" data-testid="drawer-button">
          <Menu aria-hidden="true" size={20} />
        </button>
      </Dialog.Trigger>
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
