import {
  TOAST_DURATION_DEFAULT_MS,
  TOAST_DURATION_ERROR_MS,
  TOAST_DURATION_LOADING_MS,
  TOAST_DURATION_SUCCESS_MS,
  TOAST_LOADING_DISMISSIBLE,
  TOAST_MAX_VISIBLE,
  TOAST_POSITION,
  TOAST_WIDTH_PX,
} from '../constants';

export const TOAST_KINDS = ['default', 'success', 'error', 'loading'] as const;
export type ToastKind = (typeof TOAST_KINDS)[number];

export interface ToastOptions {
  position: typeof TOAST_POSITION;
  widthPx: number;
  /** Milliseconds; Infinity means the toast stays until dismissed in code. */
  durationMs: number;
  /** Whether the toast shows a dismiss button. */
  dismissible: boolean;
}

const DURATIONS: Record<ToastKind, number> = {
  default: TOAST_DURATION_DEFAULT_MS,
  success: TOAST_DURATION_SUCCESS_MS,
  error: TOAST_DURATION_ERROR_MS,
  loading: TOAST_DURATION_LOADING_MS,
};

/** Spec §2: how a toast of each kind is shown. */
export function toastOptions(kind: ToastKind): ToastOptions {
  return {
    position: TOAST_POSITION,
    widthPx: TOAST_WIDTH_PX,
    durationMs: DURATIONS[kind],
    dismissible: kind === 'loading' ? TOAST_LOADING_DISMISSIBLE : true,
  };
}

/** Spec §2: at most 20 toasts at once; the newest `TOAST_MAX_VISIBLE` of a list (oldest first) stay. */
export function visibleToasts<T>(toasts: readonly T[]): T[] {
  return toasts.slice(Math.max(0, toasts.length - TOAST_MAX_VISIBLE));
}
