import { useEffect, useState } from 'react';
import { useOverflow } from '../lib/use-overflow';

type TooltipModule = typeof import('./Tooltip');
let tooltipModule: TooltipModule | null = null;
let tooltipLoading: Promise<TooltipModule> | null = null;

/**
 * The tooltip's code (Radix and floating-ui) loads the first time some text is actually cut, so it
 * stays out of the initial JS: most text fits.
 */
function useTooltip(needed: boolean): TooltipModule | null {
  const [loaded, setLoaded] = useState(tooltipModule);
  useEffect(() => {
    if (!needed || loaded) return;
    let live = true;
    tooltipLoading ??= import('./Tooltip').then((m) => (tooltipModule = m));
    tooltipLoading.then(
      (m) => live && setLoaded(m),
      () => (tooltipLoading = null),
    );
    return () => {
      live = false;
    };
  }, [needed, loaded]);
  return loaded;
}

export interface TruncateProps {
  text: string;
  /** Show at most this many lines (1 by default). */
  lines?: 1 | 2;
  /** False inside a link or button: the parent takes focus, the text only shows the tooltip on hover. */
  focusable?: boolean;
  className?: string;
  testId?: string;
}

/**
 * Long text cut with an ellipsis so it never breaks a layout; when it is cut, the whole text shows in a
 * tooltip. Assistive technology always reads the whole text.
 */
export function Truncate({ text, lines = 1, focusable = true, className, testId }: TruncateProps) {
  // The element itself (not a ref object): when the tooltip arrives the span is a new element, measured anew.
  const [el, setEl] = useState<HTMLSpanElement | null>(null);
  const overflow = useOverflow(el, text);
  const cut = overflow.x || overflow.y;
  const tooltip = useTooltip(cut);

  const span = (
    <span
      ref={setEl}
      className={[lines === 1 ? 'truncate' : 'truncate truncate-2', className].filter(Boolean).join(' ')}
      tabIndex={cut && focusable ? 0 : undefined}
      data-truncated={cut || undefined}
      data-testid={testId}
    >
      {text}
    </span>
  );
  // Once loaded, always inside the tooltip (closed while the text fits), so the element is replaced once at most.
  return tooltip ? (
    <tooltip.Tooltip content={<span className="tooltip-text">{text}</span>} disabled={!cut}>
      {span}
    </tooltip.Tooltip>
  ) : (
    span
  );
}
