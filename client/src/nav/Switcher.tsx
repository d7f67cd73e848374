import { ChevronsUpDown } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { requestOpen, useOverlays } from './use-overlays';

export type { SwitcherItem, SwitcherProps } from './switcher-types';
import type { SwitcherProps } from './switcher-types';

/**
 * A button opening a searchable list: Enter, Space or the arrows open it with the search field
 * focused; typing filters; arrows move, Enter picks; Tab reaches the footer links; Escape closes and
 * focus returns to the button. The long current name ends in an ellipsis with a tooltip.
 */
export function Switcher(props: SwitcherProps) {
  const { label, currentLabel, testId } = props;
  // The visible text (kind and current name) is the button's accessible name.
  const overlays = useOverlays();
  const openWithArrows = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    if (overlays) e.currentTarget.click();
    else requestOpen(testId);
  };
  const trigger = (
    <button
      type="button"
      className="switcher-button"
      aria-haspopup="dialog"
      onKeyDown={openWithArrows}
      onPointerDown={overlays ? undefined : () => requestOpen(testId)} onClick={overlays ? undefined : () => requestOpen(testId)}
      data-testid={testId}
    >
      <span className="switcher-text">
        <span className="switcher-kind">{label}</span>
        <span className="switcher-current truncate">{currentLabel}</span>
      </span>
      <ChevronsUpDown aria-hidden="true" size={16} className="switcher-chevron" />
    </button>
  );
  return overlays ? <overlays.SwitcherMenu {...props} trigger={trigger} /> : trigger;
}
