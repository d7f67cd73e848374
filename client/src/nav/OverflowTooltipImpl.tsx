import { Tooltip } from 'radix-ui';
import { useRef, useState, type ReactElement } from 'react';

function overflows(element: Element | null): boolean {
  if (!element) return false;
  const targets = [element, ...element.querySelectorAll('.truncate')];
  return targets.some((el) => el.classList.contains('truncate') && el.scrollWidth > el.clientWidth);
}

/** Radix tooltip that opens (hover or keyboard focus) only when the child's `.truncate` text is cut off. */
export function OverflowTooltipImpl({ text, children }: { text: string; children: ReactElement }) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <Tooltip.Provider delayDuration={300}>
      <Tooltip.Root open={open} onOpenChange={(next) => setOpen(next && overflows(trigger.current))}>
        <Tooltip.Trigger asChild ref={trigger}>
          {children}
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content className="tooltip" side="bottom" align="start" sideOffset={4} collisionPadding={8} data-testid="overflow-tooltip">
            {text}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
