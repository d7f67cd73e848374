import { describe, expect, it } from 'vitest';
import { switcherKeyAction } from './switcher-keys';

describe('switcher keyboard', () => {
  it('moves within the list and stops at its ends', () => {
    expect(switcherKeyAction('ArrowDown', 0, 3, false)).toEqual({ kind: 'move', index: 1 });
    expect(switcherKeyAction('ArrowDown', 2, 3, false)).toEqual({ kind: 'move', index: 2 });
    expect(switcherKeyAction('ArrowUp', 0, 3, false)).toEqual({ kind: 'move', index: 0 });
    expect(switcherKeyAction('ArrowUp', 2, 3, false)).toEqual({ kind: 'move', index: 1 });
    expect(switcherKeyAction('Home', 2, 3, false)).toEqual({ kind: 'move', index: 0 });
    expect(switcherKeyAction('End', 0, 3, false)).toEqual({ kind: 'move', index: 2 });
    expect(switcherKeyAction('ArrowDown', 0, 0, false)).toEqual({ kind: 'move', index: 0 });
  });

  it('picks with Enter or Space, only an existing item', () => {
    expect(switcherKeyAction('Enter', 1, 3, false)).toEqual({ kind: 'pick', index: 1 });
    expect(switcherKeyAction(' ', 0, 3, false)).toEqual({ kind: 'pick', index: 0 });
    expect(switcherKeyAction('Enter', 0, 0, false)).toEqual({ kind: 'none' });
  });

  it('closes with Escape; Tab goes on to the footer links when there are some', () => {
    expect(switcherKeyAction('Escape', 1, 3, true)).toEqual({ kind: 'close' });
    expect(switcherKeyAction('Tab', 1, 3, true)).toEqual({ kind: 'to-footer' });
    expect(switcherKeyAction('Tab', 1, 3, false)).toEqual({ kind: 'close' });
    expect(switcherKeyAction('a', 1, 3, true)).toEqual({ kind: 'none' });
  });
});
