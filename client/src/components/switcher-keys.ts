/** What a key pressed in a switcher's open listbox does. */
export type SwitcherKeyAction =
  | { kind: 'move'; index: number }
  | { kind: 'pick'; index: number }
  | { kind: 'close' }
  /** Tab: leave the list for the popover's footer links (the popover stays open). */
  | { kind: 'to-footer' }
  | { kind: 'none' };

/** Listbox keyboard rules: arrows, Home and End move; Enter or Space picks; Escape closes; Tab moves on. */
export function switcherKeyAction(key: string, active: number, count: number, hasFooter: boolean): SwitcherKeyAction {
  const last = count - 1;
  switch (key) {
    case 'ArrowDown':
      return { kind: 'move', index: Math.min(active + 1, Math.max(last, 0)) };
    case 'ArrowUp':
      return { kind: 'move', index: Math.max(active - 1, 0) };
    case 'Home':
      return { kind: 'move', index: 0 };
    case 'End':
      return { kind: 'move', index: Math.max(last, 0) };
    case 'Escape':
      return { kind: 'close' };
    case 'Tab':
      return hasFooter ? { kind: 'to-footer' } : { kind: 'close' };
    case 'Enter':
    case ' ':
      return active >= 0 && active < count ? { kind: 'pick', index: active } : { kind: 'none' };
    default:
      return { kind: 'none' };
  }
}
