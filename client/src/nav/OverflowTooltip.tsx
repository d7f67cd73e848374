import type { ReactElement } from 'react';
import { useOverlays } from './use-overlays';

/**
 * Shows `text` in a tooltip when the child's `.truncate` text is cut off. Long names never break a
 * layout: they end in an ellipsis and stay readable here.
 */
export function OverflowTooltip({ text, children }: { text: string; children: ReactElement }) {
  const overlays = useOverlays();
  return overlays ? <overlays.OverflowTooltipImpl text={text}>{children}</overlays.OverflowTooltipImpl> : children;
}
