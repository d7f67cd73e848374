import { useSyncExternalStore } from 'react';
import { getThemePreference, setThemePreference, subscribeTheme, type ThemePreference } from './theme';

export function useThemePreference(): [ThemePreference, (preference: ThemePreference) => void] {
  const preference = useSyncExternalStore(subscribeTheme, getThemePreference, getThemePreference);
  return [preference, setThemePreference];
}
