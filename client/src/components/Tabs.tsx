import { Tabs as Radix } from 'radix-ui';
import type { ReactNode } from 'react';

export interface TabItem {
  value: string;
  label: string;
  content: ReactNode;
}

/** Tabs (Radix): arrow keys move between tabs, the panel follows; one tab stop for the list. */
export function Tabs({ items, label, defaultValue, testId }: { items: readonly TabItem[]; label: string; defaultValue?: string; testId?: string }) {
  return (
    <Radix.Root className="tabs" defaultValue={defaultValue ?? items[0]?.value} data-testid={testId}>
      <Radix.List className="tabs-list" aria-label={label}>
        {items.map((item) => (
          <Radix.Trigger key={item.value} value={item.value} className="tabs-trigger" data-testid={testId ? `${testId}-${item.value}` : undefined}>
            {item.label}
          </Radix.Trigger>
        ))}
      </Radix.List>
      {items.map((item) => (
        <Radix.Content key={item.value} value={item.value} className="tabs-panel">
          {item.content}
        </Radix.Content>
      ))}
    </Radix.Root>
  );
}
