import { useSyncExternalStore } from 'react';
import { anyOpenRequested, markOpenRequested } from './open-requests';

type OverlaysModule = typeof import('./overlays');

let loaded: OverlaysModule | null = null;
let pending: Promise<OverlaysModule> | null = null;
const listeners = new Set<() => void>();

function focusedTestId(): string | null {
  return document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null;
}

/**
 * The frame's popovers, menus and tooltips (Radix, cmdk, floating-ui) load just after the first
 * render, outside the initial JS; until then their triggers are plain buttons. When they arrive the
 * triggers are replaced; focus stays on the trigger that had it.
 */
export function loadOverlays(): Promise<OverlaysModule> {
  pending ??= import('./overlays').then(
    (module) => {
      // A trigger used before the code arrived opens its overlay, which takes focus itself.
      const focused = anyOpenRequested() ? null : focusedTestId();
      loaded = module;
      listeners.forEach((listener) => listener());
      window.setTimeout(() => {
        const active = document.activeElement;
        if (focused && (!active || active === document.body)) {
          document.querySelector<HTMLElement>(`[data-testid="${CSS.escape(focused)}"]`)?.focus();
        }
      }, 0);
      return module;
    },
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOverlays(): OverlaysModule | null {
  return useSyncExternalStore(subscribe, () => loaded, () => loaded);
}

/**
 * A trigger used before the overlays arrived: open its overlay as soon as they do. Triggers ask on
 * pointerdown as well as on click, so a press during which the code arrives (and the plain trigger is
 * replaced, so no click follows) still opens the overlay.
 */
export function requestOpen(testId: string): void {
  markOpenRequested(testId);
  void loadOverlays().catch(() => undefined);
}
