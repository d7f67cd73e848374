import { describe, expect, it } from 'vitest';
import { THEME_BOOT_SCRIPT } from '../../../shared/theme-boot';
import { parseThemePreference, resolveTheme, THEME_STORAGE_KEY } from './theme';

/** Runs the head's theme script against a stored choice and a system setting; answers what it set on <html>. */
function boot(stored: string | null | Error, systemDark: boolean) {
  const root = { dataset: {} as Record<string, string>, style: {} as Record<string, string> };
  const localStorage = {
    getItem: (key: string) => {
      if (stored instanceof Error) throw stored;
      return key === THEME_STORAGE_KEY ? stored : null;
    },
  };
  const matchMedia = (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' && systemDark });
  new Function('localStorage', 'matchMedia', 'document', THEME_BOOT_SCRIPT)(localStorage, matchMedia, { documentElement: root });
  return { theme: root.dataset['theme'], preference: root.dataset['themePreference'], colorScheme: root.style['colorScheme'] };
}

describe('theme preference', () => {
  it('reads a stored choice and falls back to the system setting', () => {
    expect(parseThemePreference('dark')).toBe('dark');
    expect(parseThemePreference('light')).toBe('light');
    expect(parseThemePreference('system')).toBe('system');
    expect(parseThemePreference('purple')).toBe('system');
    expect(parseThemePreference(null)).toBe('system');
  });

  it('follows the system only when asked to', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});

describe('the theme script of the head (before the first paint)', () => {
  it('sets what the client sets once its code runs, for every stored choice and system setting', () => {
    for (const stored of ['light', 'dark', 'system', 'purple', null]) {
      for (const systemDark of [true, false]) {
        const preference = parseThemePreference(stored);
        const theme = resolveTheme(preference, systemDark);
        expect(boot(stored, systemDark), `${stored} / system dark ${systemDark}`).toEqual({ theme, preference, colorScheme: theme });
      }
    }
  });

  it('follows the system when storage cannot be read', () => {
    expect(boot(new Error('storage disabled'), true)).toEqual({ theme: 'dark', preference: 'system', colorScheme: 'dark' });
  });
});
