import { lazy, useState, type ComponentType } from 'react';
import type { LazyPage } from '../lib/route-def';

type PageModule = { default: ComponentType<object> };

/**
 * A code-split page that can be loaded before it renders (on hover, focus or when idle). Once its
 * code is in, a new mount renders the component directly, so a preloaded page never suspends.
 */
export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: ComponentType<object> | undefined;
  let pending: Promise<PageModule> | undefined;
  const preload = (): Promise<PageModule> => {
    pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed download (a new deploy, a dropped connection) may be tried again.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  function Page(props: object) {
    // Decided once per mount: switching component types later would remount the page.
    const [Component] = useState(() => loaded);
    return Component ? <Component {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Page, { preload });
}
