import { describe, expect, it } from 'vitest';
import { TOAST_KINDS, toastOptions, visibleToasts } from './toasts';

describe('toastOptions', () => {
  it.each([
    ['default', 4000, true],
    ['success', 2000, true],
    ['error', 4000, true],
    ['loading', Number.POSITIVE_INFINITY, false],
  ] as const)('%s: %d ms, dismissible %s, bottom right, 300px', (kind, durationMs, dismissible) => {
    expect(toastOptions(kind)).toEqual({ position: 'bottom-right', widthPx: 300, durationMs, dismissible });
  });

  it('covers every kind', () => {
    expect(TOAST_KINDS).toEqual(['default', 'success', 'error', 'loading']);
  });
});

describe('visibleToasts', () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => i);
  it.each([
    [0, 0, undefined],
    [1, 1, 0],
    [19, 19, 0],
    [20, 20, 0],
    [21, 20, 1],
    [50, 20, 30],
  ])('%d toasts → %d shown, oldest shown %j', (n, shown, oldest) => {
    const visible = visibleToasts(list(n));
    expect(visible).toHaveLength(shown);
    expect(visible[0]).toBe(oldest);
    if (n > 0) expect(visible.at(-1)).toBe(n - 1);
  });
});
