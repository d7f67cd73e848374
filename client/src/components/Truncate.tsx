import { useLayoutEffect, useRef, useState } from 'react';
import { Tooltip } from './Tooltip';

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
  const ref = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setCut(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text]);

  const span = (
    <span
      ref={ref}
      className={[lines === 1 ? 'truncate' : 'truncate truncate-2', className].filter(Boolean).join(' ')}
      tabIndex={cut && focusable ? 0 : undefined}
      data-truncated={cut || undefined}
      data-testid={testId}
    >
      {text}
    </span>
  );
  // Always inside the tooltip (closed while the text fits), so the element measured is never replaced.
  return (
    <Tooltip content={<span className="tooltip-text">{text}</span>} disabled={!cut}>
      {span}
    </Tooltip>
  );
}
