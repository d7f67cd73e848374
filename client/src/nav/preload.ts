import { useEffect } from 'react';
import { matchRoute, useRouter } from 'wouter';
import type { RouteDef } from '../lib/route-def';
import { ROUTE_LIST } from '../routes';

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
  routeFor(parser, url.pathname)?.page.preload().catch(ignore);
}

const idle: (callback: () => void) => void =
  typeof window !== 'undefined' && 'requestIdleCallback' in window ? (cb) => window.requestIdleCallback(cb, { timeout: 2000 }) : (cb) => window.setTimeout(cb, 200);

/**
 * Speed (spec §2's pages feel instant): a page's code loads when a link to it is hovered or
 * focused, and every page's code loads one by one once the browser is idle.
 */
export function usePagePreloading(): void {
  const { parser } = useRouter();
  useEffect(() => {
    const onIntent = (event: Event) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      const href = link?.getAttribute('href');
      if (href?.startsWith('/')) preloadPath(parser, href);
    };
    document.addEventListener('pointerover', onIntent, { passive: true });
    document.addEventListener('focusin', onIntent);

    let cancelled = false;
    const pages = [...new Set(ROUTE_LIST.map((route) => route.page))];
    const next = () => {
      const page = pages.shift();
      if (cancelled || !page) return;
      page.preload().catch(ignore).finally(() => idle(next));
    };
    idle(next);
    return () => {
      cancelled = true;
      document.removeEventListener('pointerover', onIntent);
      document.removeEventListener('focusin', onIntent);
    };
  }, [parser]);
}
