import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { analytics } from '../lib/analytics';
import { QUERY_RULES } from '../lib/query-client';
import { currentPathWithSearch } from '../lib/navigation';
import { trpc } from '../trpc';
import { applyShellParams } from './shell-params';
import { sessionIdentity } from './use-session';

/** Runs the shell's URL rules whenever the location or query changes, and captures page views. */
export function useShellEffects(): void {
  const [location] = useLocation();
  const search = useSearch();
  const utils = trpc.useUtils();

  useEffect(() => {
    // Read the live URL (not the render's copy): a rule that already removed its parameters
    // must not run twice.
    applyShellParams(currentPathWithSearch(), {
      analytics,
      storage: window.localStorage,
      replaceUrl: (path) => window.history.replaceState(window.history.state, '', path),
      loadUser: async () => {
        const identity = sessionIdentity(await utils.auth.session.fetch(undefined, QUERY_RULES.session));
        return identity ? { id: identity.id, email: identity.traits.email, name: identity.traits.name } : null;
      },
    });
  }, [location, search, utils]);

  useEffect(() => {
    analytics.capturePageView(location);
  }, [location]);
}
