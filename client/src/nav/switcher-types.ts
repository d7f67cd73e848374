import type { ReactNode } from 'react';

export interface SwitcherItem {
  id: string;
  label: string;
  description?: string;
}

export interface SwitcherProps {
  label: string;
  currentLabel: string;
  items: readonly SwitcherItem[];
  /** 'loading' and 'error' replace the list with a short message. */
  status?: 'loading' | 'error' | 'ready';
  selectedId?: string | undefined;
  onSelect: (id: string) => void;
  /** Called when an item is pointed at or highlighted: a chance to fetch what picking it needs. */
  onIntent?: (id: string) => void;
  footer?: ReactNode;
  testId: string;
}
