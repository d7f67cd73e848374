import { THEME_STORAGE_KEY } from '../../../shared/theme-boot';

/** The user's theme choice; 'system' follows the operating system's light or dark setting. */
export type ThemePreference = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

export { THEME_STORAGE_KEY };
export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];

export function parseThemePreference(value: string | null | undefined): ThemePreference {
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): Theme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

function readPreference(): ThemePreference {
  try {
    return parseThemePreference(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

/** Sets `data-theme` on <html>, which switches the colour tokens of the style sheets. */
function apply(preference: ThemePreference): void {
  const theme = resolveTheme(preference, window.matchMedia(DARK_QUERY).matches);
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.themePreference = preference;
  root.style.colorScheme = theme;
}

type Listener = (preference: ThemePreference) => void;
const listeners = new Set<Listener>();
let current: ThemePreference = 'system';

/** Applies the stored preference before the first paint and follows the system setting after. */
export function initTheme(): void {
  current = readPreference();
  apply(current);
  window.matchMedia(DARK_QUERY).addEventListener('change', () => apply(current));
  // Another tab changed the choice.
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY) setThemePreference(parseThemePreference(event.newValue), false);
  });
}

export function getThemePreference(): ThemePreference {
  return current;
}

export function setThemePreference(preference: ThemePreference, persist = true): void {
  current = preference;
  if (persist) {
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, preference);
    } catch {
      // Storage may be disabled; the choice still holds for this visit.
    }
  }
  apply(preference);
  listeners.forEach((listener) => listener(preference));
}

export function subscribeTheme(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
