import { Tooltip as Radix } from 'radix-ui';
import { useState, type ReactElement, type ReactNode } from 'react';

/**
 * A tooltip on hover and keyboard focus (Radix). The trigger is the child element itself, which must be
 * able to hold a ref and, for keyboard users, take focus. While `disabled` it never opens (the trigger
 * stays the same element, so nothing measured or focused is replaced).
 */
export function Tooltip({ content, children, disabled = false }: { content: ReactNode; children: ReactElement; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  // Its own provider: Radix stays out of the entry chunk and loads with the first tooltip needed.
  return (
    <Radix.Provider delayDuration={300}>
      <Radix.Root open={open && !disabled} onOpenChange={setOpen}>
        <Radix.Trigger asChild>{children}</Radix.Trigger>
        <Radix.Portal>
          <Radix.Content className="tooltip" sideOffset={6} collisionPadding={8} data-testid="tooltip">
            {content}
            <Radix.Arrow className="tooltip-arrow" />
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </Radix.Provider>
  );
}
