import { Tooltip as Radix } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';

/**
 * A tooltip on hover and keyboard focus (Radix). The trigger is the child element itself, which must be
 * able to hold a ref and, for keyboard users, take focus.
 */
export function Tooltip({ content, children, disabled = false }: { content: ReactNode; children: ReactElement; disabled?: boolean }) {
  return (
    <Radix.Root {...(disabled ? { open: false } : {})}>
      <Radix.Trigger asChild>{children}</Radix.Trigger>
      <Radix.Portal>
        <Radix.Content className="tooltip" sideOffset={6} collisionPadding={8} data-testid="tooltip">
          {content}
          <Radix.Arrow className="tooltip-arrow" />
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
