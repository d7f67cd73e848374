import { Command } from 'cmdk';
import { Check } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useEffect, useState, type ReactElement } from 'react';
import { OverflowTooltipImpl } from './OverflowTooltipImpl';
import type { SwitcherProps } from './switcher-types';
import { clearOpenRequest, isOpenRequested } from './open-requests';

/** Matches the typed text against an item's label and description, not its id. */
function filterByWords(_value: string, search: string, keywords?: string[]): number {
  const haystack = (keywords ?? []).join(' ').toLowerCase();
  return haystack.includes(search.trim().toLowerCase()) ? 1 : 0;
}

/** The switcher's Radix popover with a cmdk list (combobox + listbox semantics, filtering, keys). */
export function SwitcherMenu({ trigger, label, currentLabel, items, status = 'ready', selectedId, onSelect, onIntent, footer, testId }: SwitcherProps & { trigger: ReactElement }) {
  const initialValue = () => (selectedId && items.some((i) => i.id === selectedId) ? selectedId : (items[0]?.id ?? ''));
  const [open, setOpen] = useState(() => isOpenRequested(testId));
  const [highlighted, setHighlighted] = useState(initialValue);
  useEffect(() => clearOpenRequest(testId), [testId]);
  const onOpenChange = (next: boolean) => {
    if (next) setHighlighted(initialValue());
    setOpen(next);
  };
  const pick = (id: string) => {
    setOpen(false);
    if (id !== selectedId) onSelect(id);
  };
  const emptyText = status === 'loading' ? 'Loading…' : status === 'error' ? 'Could not load the list' : 'Nothing here yet';

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <OverflowTooltipImpl text={currentLabel}>
        <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      </OverflowTooltipImpl>
      <Popover.Portal>
        <Popover.Content className="switcher-popover" aria-label={label} align="start" sideOffset={4} collisionPadding={8} data-testid={`${testId}-popover`}>
          <Command
            label={label}
            loop
            value={highlighted}
            onValueChange={(value) => {
              setHighlighted(value);
              if (value) onIntent?.(value);
            }}
            filter={filterByWords}
          >
            <Command.Input className="switcher-search" placeholder={`Find a ${label.toLowerCase()}…`} data-testid={`${testId}-search`} />
            <Command.List className="switcher-list" aria-label={label} data-testid={`${testId}-list`}>
              {items.map((item) => (
                <Command.Item
                  key={item.id}
                  value={item.id}
                  keywords={[item.label, item.description ?? '']}
                  onSelect={pick}
                  onPointerEnter={() => onIntent?.(item.id)}
                  className="switcher-option"
                  data-current={item.id === selectedId || undefined}
                  data-testid={`${testId}-option`}
                >
                  <span className="switcher-check" aria-hidden="true">
                    {item.id === selectedId && <Check size={14} />}
                  </span>
                  <span className="truncate switcher-option-label" title={item.label}>
                    {item.label}
                  </span>
                  {item.description && <span className="switcher-description">{item.description}</span>}
                  {item.id === selectedId && <span className="sr-only">(current)</span>}
                </Command.Item>
              ))}
              <Command.Empty className="switcher-empty" data-testid={`${testId}-${status === 'ready' ? 'empty' : status}`}>
                {items.length === 0 ? emptyText : 'No match'}
              </Command.Empty>
            </Command.List>
          </Command>
          {footer && (
            <div className="switcher-footer" onClick={() => setOpen(false)}>
              {footer}
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
