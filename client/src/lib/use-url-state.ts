import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';

/**
 * A page's filters and page token kept in its URL query, so that a reload, a shared link or coming back
 * from a detail page lands on the same filtered page. Setting a value replaces the history entry.
 */
export function useUrlState<K extends string>(keys: readonly K[]): [Record<K, string>, (changes: Partial<Record<K, string>>) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  const set = useCallback(
    (changes: Partial<Record<K, string>>) => {
      const next = new URLSearchParams(search);
      for (const [k, v] of Object.entries(changes) as [K, string | undefined][]) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      const query = next.toString();
      navigate(`${location}${query ? `?${query}` : ''}`, { replace: true });
    },
    [search, location, navigate],
  );
  return [values, set];
}
