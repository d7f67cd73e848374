import { describe, expect, it } from 'vitest';
import { TOAST_MAX_VISIBLE } from '../../../shared/constants';
import { hasDismissButton, toastKind, toastsToDismiss, type LibraryToastType } from './toast-rules';

describe('toast rules', () => {
  it.each<[LibraryToastType, string, boolean]>([
    ['blank', 'default', true],
    ['custom', 'default', true],
    ['success', 'success', true],
    ['error', 'error', true],
    ['loading', 'loading', false],
  ])('a %s toast is a %s toast; dismiss button: %s', (type, kind, dismissible) => {
    expect(toastKind(type)).toBe(kind);
    expect(hasDismissButton(type)).toBe(dismissible);
  });

  const toasts = (n: number, visible = true) => Array.from({ length: n }, (_, i) => ({ id: `t${n - i}`, visible }));

  it('keeps up to 20 toasts', () => {
    expect(TOAST_MAX_VISIBLE).toBe(20);
    expect(toastsToDismiss(toasts(0))).toEqual([]);
    expect(toastsToDismiss(toasts(20))).toEqual([]);
  });

  it('dismisses the oldest beyond 20 (the list is newest first)', () => {
    expect(toastsToDismiss(toasts(21))).toEqual(['t1']);
    expect(toastsToDismiss(toasts(23))).toEqual(['t1', 't2', 't3']);
  });

  it('does not count toasts already leaving', () => {
    expect(toastsToDismiss([...toasts(20), { id: 'old', visible: false }])).toEqual([]);
  });
});
