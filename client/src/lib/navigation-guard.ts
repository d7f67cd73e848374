import { useCallback, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { AroundNavHandler } from 'wouter';

/**
 * The unsaved-changes guard. A form with changes registers a blocker; while one is registered:
 * - every in-app navigation (wouter's navigate, <Link>, redirects) goes through `guardNavigation`,
 *   installed as the Router's `aroundNav`, and waits for the user to confirm leaving;
 * - the browser's back and forward buttons are caught on `popstate`, the address is put back, and the
 *   same confirmation is asked;
 * - closing or reloading the tab asks the browser's own question (`beforeunload`).
 * Navigations that stay on the same path (a query parameter cleaned up) are never held.
 */

export const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes. If you leave this page, they will be lost.';

export interface PendingNavigation {
  /** Where the user wanted to go (path, query and hash). */
  to: string;
  message: string;
}

const blockers = new Map<symbol, string>();
let pending: (PendingNavigation & { proceed: () => void }) | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while some form holds unsaved changes. */
export function isNavigationBlocked(): boolean {
  return blockers.size > 0;
}

function blockMessage(): string {
  return blockers.values().next().value ?? UNSAVED_CHANGES_MESSAGE;
}

function pathOf(to: string): string {
  return new URL(to, window.location.href).pathname;
}

function currentTarget(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

/** Holds `proceed` until the user answers; a newer request replaces an unanswered one. */
function hold(to: string, proceed: () => void): void {
  pending = { to, message: blockMessage(), proceed };
  emit();
}

/** The navigation waiting for the user's answer, or null. */
export function usePendingNavigation(): PendingNavigation | null {
  return useSyncExternalStore(subscribe, () => pending, () => pending);
}

/** The user confirmed: the held navigation happens. */
export function confirmNavigation(): void {
  const held = pending;
  pending = null;
  emit();
  held?.proceed();
}

/** The user chose to stay. */
export function cancelNavigation(): void {
  pending = null;
  emit();
}

/**
 * A switch inside one page that drops the form's edits (another template in the same editor): runs
 * `proceed` at once, or, while a form holds unsaved changes, after the user confirms leaving them.
 */
export function confirmLeaving(to: string, proceed: () => void): void {
  if (!isNavigationBlocked()) proceed();
  else hold(to, proceed);
}

/** wouter's `aroundNav`: every in-app navigation passes here. */
export const guardNavigation: AroundNavHandler = (navigate, to, options) => {
  if (!isNavigationBlocked() || pathOf(to) === window.location.pathname) {
    navigate(to, options);
    return;
  }
  hold(to, () => navigate(to, options));
};

let lastHref = typeof window === 'undefined' ? '' : window.location.href;
let installed = false;

function remember(): void {
  lastHref = window.location.href;
}

function onPopState(event: PopStateEvent): void {
  if (!isNavigationBlocked() || new URL(lastHref).pathname === window.location.pathname) {
    remember();
    return;
  }
  // Put the address back before the router sees the change, then ask.
  event.stopImmediatePropagation();
  const to = currentTarget();
  window.history.pushState(window.history.state, '', lastHref);
  hold(to, () => window.history.replaceState(null, '', to));
}

/**
 * Catches back/forward before the router does. Call once, before the app renders (the router's own
 * popstate listener must come after this one).
 */
export function installNavigationGuard(): void {
  if (installed) return;
  installed = true;
  remember();
  window.addEventListener('popstate', onPopState, { capture: true });
  // wouter dispatches these after every push/replace; they keep the address to restore up to date.
  window.addEventListener('pushState', remember);
  window.addEventListener('replaceState', remember);
  window.addEventListener('hashchange', remember);
}

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (!isNavigationBlocked()) return;
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = '';
}

/**
 * While `dirty`, leaving the page (in the app, by the browser's buttons or by closing the tab) asks first.
 * Answers `release`: call it when the changes were just saved and a navigation follows at once, before
 * React has re-rendered the form as clean.
 */
export function useUnsavedChangesGuard(dirty: boolean, message: string = UNSAVED_CHANGES_MESSAGE): () => void {
  const key = useRef<symbol | null>(null);
  // A layout effect: the guard changes in the same commit as the form. With a passive effect, a form just
  // saved was painted clean (its "saved" toast showing) while its guard still held, so a click on a link in
  // that moment asked about changes that were no longer there.
  useLayoutEffect(() => {
    if (!dirty) return;
    const own = Symbol('unsaved-changes');
    key.current = own;
    blockers.set(own, message);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      unblock(own);
      // The changes that held the navigation are gone (saved while the question was open, or the form
      // unmounted): nothing is left to lose, so the user goes where they asked.
      if (blockers.size === 0 && pending) confirmNavigation();
    };
  }, [dirty, message]);
  return useCallback(() => {
    if (key.current) unblock(key.current);
  }, []);
}

function unblock(key: symbol): void {
  blockers.delete(key);
  if (blockers.size === 0) window.removeEventListener('beforeunload', onBeforeUnload);
}
