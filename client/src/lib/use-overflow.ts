import { useEffect, useState } from 'react';

/**
 * Whether an element's content is wider (`x`) or taller (`y`) than the element: a cut text, a table that
 * scrolls sideways. Measured when a ResizeObserver reports, after the browser's own layout and before the
 * paint (it reports every element once as it starts observing): a measure in the commit would force a
 * layout of the whole page per render. The element's first child is watched too, so content that grows
 * inside a box of fixed size is seen; `content` measures again when what the element shows changes.
 */
export function useOverflow(el: HTMLElement | null, content?: unknown): { x: boolean; y: boolean } {
  const [x, setX] = useState(false);
  const [y, setY] = useState(false);
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      setX(el.scrollWidth > el.clientWidth + 1);
      setY(el.scrollHeight > el.clientHeight + 1);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [el, content]);
  return { x, y };
}
