import { toastOptions, visibleToasts, type ToastKind } from '../../../shared/domain/toasts';

/** react-hot-toast's toast types. */
export type LibraryToastType = 'success' | 'error' | 'loading' | 'blank' | 'custom';

/** The spec's toast kind of a react-hot-toast type: plain and custom toasts are 'default'. */
export function toastKind(type: LibraryToastType): ToastKind {
  return type === 'blank' || type === 'custom' ? 'default' : type;
}

/** Spec §2: every toast has a dismiss button except loading toasts. */
export function hasDismissButton(type: LibraryToastType): boolean {
  return toastOptions(toastKind(type)).dismissible;
}

/**
 * Spec §2: at most 20 toasts at once. Given the shown toasts newest first (react-hot-toast's order),
 * answers the ids to dismiss: the oldest beyond the limit.
 */
export function toastsToDismiss(newestFirst: ReadonlyArray<{ id: string; visible: boolean }>): string[] {
  const shown = newestFirst.filter((t) => t.visible).reverse();
  const keep = new Set(visibleToasts(shown).map((t) => t.id));
  return shown.filter((t) => !keep.has(t.id)).map((t) => t.id);
}
