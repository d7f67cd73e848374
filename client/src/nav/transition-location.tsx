import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { navigate } from 'wouter/use-browser-location';

interface Place {
  path: string;
  search: string;
}

const PlaceCtx = createContext<Place | null>(null);

/**
 * Where the page is when there is no browser location to read: the server renders the first paint of a
 * page opened by URL (client/src/entry-server.tsx) at the URL it was asked.
 */
export const InitialPlace = createContext<Place | null>(null);

function readPlace(): Place {
  return { path: window.location.pathname, search: window.location.search.replace(/^\?/, '') };
}

const LOCATION_EVENTS = ['popstate', 'pushState', 'replaceState'] as const;

/**
 * Holds the location in React state and moves it in a transition: while the next page's code
 * loads, the current page stays on screen instead of a blank fallback.
 */
export function TransitionLocationProvider({ children }: { children: ReactNode }) {
  const initial = useContext(InitialPlace);
  const [place, setPlace] = useState(() => initial ?? readPlace());
  useEffect(() => {
    const update = () => {
      const next = readPlace();
      startTransition(() => setPlace((prev) => (prev.path === next.path && prev.search === next.search ? prev : next)));
    };
    LOCATION_EVENTS.forEach((event) => window.addEventListener(event, update));
    update();
    return () => LOCATION_EVENTS.forEach((event) => window.removeEventListener(event, update));
  }, []);
  return <PlaceCtx.Provider value={place}>{children}</PlaceCtx.Provider>;
}

function usePlace(): Place {
  const place = useContext(PlaceCtx);
  if (!place) throw new Error('TransitionLocationProvider is missing');
  return place;
}

/** wouter location hook reading the transitioned location. */
export function useTransitionLocation(): [string, typeof navigate] {
  return [usePlace().path, navigate];
}

/** wouter search hook reading the transitioned query string. */
export function useTransitionSearch(): string {
  return usePlace().search;
}
