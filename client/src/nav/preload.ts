import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { matchRoute, useRouter } from 'wouter';
import type { RouteDef } from '../lib/route-def';
import { ROUTE_LIST } from '../routes';
import { PAGES } from '../page-registry';

type Parser = ReturnType<typeof useRouter>['parser'];

function routeFor(parser: Parser, path: string): RouteDef | undefined {
  return ROUTE_LIST.find((route) => matchRoute(parser, route.pattern, path)[0]);
}

function ignore(): void {
  // A failed preload is retried when the page renders.
}

/** Loads the code of the page an internal link points at. */
export function preloadPath(parser: Parser, href: string): void {
  const url = new URL(href, window.location.origin);
  if (url.origin !== window.location.origin) return;
  const route = routeFor(parser, url.pathname);
  if (route) PAGES[route.page].preload().catch(ignore);
}

const idle: (callback: () => void) => void =
  typeof window !== 'undefined' && 'requestIdleCallback' in window ? (cb) => window.requestIdleCallback(cb, { timeout: 2000 }) : (cb) => window.setTimeout(cb, 200);

/** Calls back once the document has loaded (its scripts, styles and images) and the browser is idle. */
export function whenLoadedAndIdle(callback: () => void): void {
  if (document.readyState === 'complete') idle(callback);
  else window.addEventListener('load', () => idle(callback), { once: true });
}

/**
 * Calls back once the page is interactive and quiet: the document has loaded and no query is in
 * flight, then the browser is idle. Answers a cancel function.
 */
function whenQuiet(queryClient: QueryClient, callback: () => void): () => void {
  let cancelled = false;
  let unsubscribe: (() => void) | undefined;
  const check = () => {
    if (cancelled || document.readyState !== 'complete' || queryClient.isFetching() > 0) return;
    unsubscribe?.();
    unsubscribe = undefined;
    idle(() => {
      if (cancelled) return;
      // A query started while waiting for idle time goes first.
      if (queryClient.isFetching() > 0) wait();
      else callback();
    });
  };
  const wait = () => {
    unsubscribe ??= queryClient.getQueryCache().subscribe(check);
    check();
  };
  const onLoad = () => wait();
  if (document.readyState === 'complete') wait();
  else window.addEventListener('load', onLoad, { once: true });
  return () => {
    cancelled = true;
    unsubscribe?.();
    window.removeEventListener('load', onLoad);
  };
}

/**
 * Speed (spec §2's pages feel instant): a page's code loads when a link to it is hovered or
 * focused, and every page's code loads one by one once the page is interactive: after the document
 * has loaded, while no query is in flight and the browser is idle, so it never competes with what
 * the page itself is fetching.
 */
export function usePagePreloading(): void {
  const { parser } = useRouter();
  const queryClient = useQueryClient();
  useEffect(() => {
    const onIntent = (event: Event) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      const href = link?.getAttribute('href');
      if (href?.startsWith('/')) preloadPath(parser, href);
    };
    document.addEventListener('pointerover', onIntent, { passive: true });
    document.addEventListener('focusin', onIntent);

    let cancelled = false;
    let cancelWait = () => {};
    const pages = [...new Set(ROUTE_LIST.map((route) => PAGES[route.page]))];
    const next = () => {
      const page = pages.shift();
      if (cancelled || !page) return;
      page
        .preload()
        .catch(ignore)
        .finally(() => {
          if (!cancelled) cancelWait = whenQuiet(queryClient, next);
        });
    };
    cancelWait = whenQuiet(queryClient, next);
    return () => {
      cancelled = true;
      cancelWait();
      document.removeEventListener('pointerover', onIntent);
      document.removeEventListener('focusin', onIntent);
    };
  }, [parser, queryClient]);
}
