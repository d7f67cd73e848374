import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { switcherKeyAction } from './switcher-keys';

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
  footer?: ReactNode;
  testId: string;
}

/**
 * A button opening a listbox: Enter, Space or the arrows open it; arrows move, Enter or Space picks;
 * Tab reaches the footer links; Escape closes and focus returns to the button.
 */
export function Switcher({ label, currentLabel, items, status = 'ready', selectedId, onSelect, footer, testId }: SwitcherProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const selected = items.findIndex((i) => i.id === selectedId);
    setActive(selected >= 0 ? selected : 0);
    list.current?.focus();
    const onPointer = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open, items, selectedId]);

  useEffect(() => {
    if (open) list.current?.querySelector('[data-active="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [open, active]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const pick = (id: string) => {
    close();
    if (id !== selectedId) onSelect(id);
  };

  const onListKeyDown = (e: KeyboardEvent) => {
    const action = switcherKeyAction(e.key, active, items.length, Boolean(footer));
    if (action.kind === 'none' || action.kind === 'to-footer') return;
    e.preventDefault();
    e.stopPropagation();
    if (action.kind === 'move') setActive(action.index);
    else if (action.kind === 'close') close();
    else if (action.kind === 'pick' && items[action.index]) pick(items[action.index]!.id);
  };
  const onPopoverKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    close();
  };
  const onButtonKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    setOpen(true);
  };
  // Focus leaving the switcher (Tab past the footer, a click elsewhere) closes it.
  const onBlur = (e: FocusEvent) => {
    if (open && e.relatedTarget && !root.current?.contains(e.relatedTarget as Node)) setOpen(false);
  };

  const emptyText = status === 'loading' ? 'Loading…' : status === 'error' ? 'Could not load the list' : 'Nothing here yet';

  return (
    <div className="switcher" ref={root} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className="switcher-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKeyDown}
        data-testid={testId}
      >
        <span className="switcher-kind">{label}</span>
        <span className="switcher-current">{currentLabel}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="switcher-popover" onKeyDown={onPopoverKeyDown}>
          <ul
            ref={list}
            id={listId}
            role="listbox"
            tabIndex={-1}
            aria-label={label}
            aria-busy={status === 'loading' || undefined}
            aria-describedby={items.length === 0 ? `${listId}-empty` : undefined}
            aria-activedescendant={items[active] ? `${listId}-${items[active].id}` : undefined}
            onKeyDown={onListKeyDown}
            className="switcher-list"
            data-testid={`${testId}-list`}
          >
            {items.map((item, index) => (
              <li
                key={item.id}
                id={`${listId}-${item.id}`}
                role="option"
                aria-selected={item.id === selectedId}
                data-active={index === active}
                className={index === active ? 'switcher-option switcher-option-active' : 'switcher-option'}
                onMouseEnter={() => setActive(index)}
                onClick={() => pick(item.id)}
                data-testid={`${testId}-option`}
              >
                <span>{item.label}</span>
                {item.description && <span className="switcher-description">{item.description}</span>}
              </li>
            ))}
          </ul>
          {items.length === 0 && (
            <p id={`${listId}-empty`} className="switcher-empty" data-testid={`${testId}-${status === 'ready' ? 'empty' : status}`}>
              {emptyText}
            </p>
          )}
          {footer && (
            <div className="switcher-footer" onClick={() => setOpen(false)}>
              {footer}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
