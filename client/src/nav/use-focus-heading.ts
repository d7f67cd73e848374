import { useEffect, useRef, type RefObject } from 'react';

function userIsElsewhere(main: HTMLElement): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || active === main) return false;
  // Someone already working in the new page (a field with autofocus), in a dialog, or in a menu or list they
  // just opened (whose trigger says so) keeps their focus: moving it would close what they opened.
  if (main.contains(active)) return true;
  if (active.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], [aria-expanded="true"]')) return true;
  return active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement;
}

/**
 * After a navigation, focus moves to the new page's heading (once it is rendered), so screen-reader
 * and keyboard users start at the top of the new page. The first page of a visit is left alone.
 */
export function useFocusHeadingOnNavigate(location: string, mainRef: RefObject<HTMLElement | null>): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = mainRef.current;
    if (!main) return;
    const tryFocus = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      observer.disconnect();
      if (userIsElsewhere(main)) return true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      window.scrollTo({ top: 0 });
      return true;
    };
    const observer = new MutationObserver(() => void tryFocus());
    if (!tryFocus()) observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [location, mainRef]);
}
