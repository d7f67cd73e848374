import { use } from 'react';
import { useLocation } from 'wouter';

/**
 * The first data of the page the console was opened on (route prefetch), which that page waits for
 * inside the page area's Suspense boundary: it then appears whole, instead of placeholders giving way
 * to content and moving what is below them. The wait is bounded by the prefetch itself; pages reached
 * afterwards by a link never wait here.
 */
let first: { path: string; data: Promise<void> } | null = null;

export function holdFirstPage(path: string, data: Promise<void> | undefined): void {
  if (!data) return;
  first = { path, data };
  void data.then(() => {
    first = null;
  });
}

/** Suspends while the page opened by URL still waits for its first data. */
export function FirstDataGate(): null {
  const [location] = useLocation();
  const waiting = first;
  if (waiting && waiting.path === location) use(waiting.data);
  return null;
}
