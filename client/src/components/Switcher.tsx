import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface SwitcherItem {
  id: string;
  label: string;
  description?: string;
}

export interface SwitcherProps {
  label: string;
  currentLabel: string;
  items: readonly SwitcherItem[];
  selectedId?: string | undefined;
  onSelect: (id: string) => void;
  footer?: ReactNode;
  testId: string;
}

/** A menu button with a listbox: arrows move, Enter or Space picks, Escape closes. */
export function Switcher({ label, currentLabel, items, selectedId, onSelect, footer, testId }: SwitcherProps) {
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

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const pick = (id: string) => {
    close();
    if (id !== selectedId) onSelect(id);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const last = items.length - 1;
    if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, last));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Home') setActive(0);
    else if (e.key === 'End') setActive(last);
    else if (e.key === 'Escape' || e.key === 'Tab') return close();
    else if ((e.key === 'Enter' || e.key === ' ') && items[active]) pick(items[active].id);
    else return;
    e.preventDefault();
  };

  return (
    <div className="switcher" ref={root}>
      <button
        ref={button}
        type="button"
        className="switcher-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={`${label}: ${currentLabel}`}
        onClick={() => setOpen((o) => !o)}
        data-testid={testId}
      >
        <span className="switcher-kind">{label}</span>
        <span className="switcher-current">{currentLabel}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="switcher-popover">
          <ul
            ref={list}
            id={listId}
            role="listbox"
            tabIndex={-1}
            aria-label={label}
            aria-activedescendant={items[active] ? `${listId}-${items[active].id}` : undefined}
            onKeyDown={onKeyDown}
            className="switcher-list"
          >
            {items.map((item, index) => (
              <li
                key={item.id}
                id={`${listId}-${item.id}`}
                role="option"
                aria-selected={item.id === selectedId}
                className={index === active ? 'switcher-option switcher-option-active' : 'switcher-option'}
                onMouseEnter={() => setActive(index)}
                onClick={() => pick(item.id)}
                data-testid={`${testId}-option`}
              >
                <span>{item.label}</span>
                {item.description && <span className="switcher-description">{item.description}</span>}
              </li>
            ))}
            {items.length === 0 && <li className="switcher-empty">Nothing here yet</li>}
          </ul>
          {footer && <div className="switcher-footer" onClick={() => setOpen(false)}>{footer}</div>}
        </div>
      )}
    </div>
  );
}
