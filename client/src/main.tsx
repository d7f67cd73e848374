import { StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { consoleAnalytics } from './lib/analytics';
import { installNavigationGuard } from './lib/navigation-guard';
import { createQueryClient } from './lib/query-client';
import { rememberReaderZone } from './lib/reader-zone';
import { FIRST_CODE_WAIT_MS, FIRST_CODE_WAIT_PAINTED_MS, prefetchRoute } from './lib/route-prefetch';
import { whenLoadedAndIdle } from './nav/preload';
import { initTheme } from './nav/theme';
import { ROUTE_LIST } from './routes';
import { ConsoleRoot } from './shell/ConsoleRoot';
import { holdFirstPage } from './shell/first-data';
import { createTrpcClient } from './trpc';
import './styles.css';
import './styles/components.css';
import './styles/frame.css';

// Before the router subscribes to popstate, so back/forward can be held while a form has changes.
installNavigationGuard();

// Before the first render, so the page never flashes in the wrong theme.
initTheme();

// The server paints the next page opened by URL with its dates in this browser's time zone.
rememberReaderZone();

// Whether analytics need consent here (and whether they run at all) is the server's to say. They are asked
// once the page has loaded and the browser is idle, so they never compete with the page's own code and data.
whenLoadedAndIdle(() => void consoleAnalytics?.load());

// One client for the page's life: created before the first render, so the route prefetch below fills
// the same cache the page reads.
const queryClient = createQueryClient();
const trpcClient = createTrpcClient();

// A page opened by URL starts its code, its session and its first queries now, all at once (what its HTML
// carried is already in), and shows once its first data is in (bounded), so it appears whole.
const first = prefetchRoute(ROUTE_LIST, queryClient, trpcClient, window.location.pathname, window.location.search);
holdFirstPage(window.location.pathname, first.data);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// The server may have painted the page already (entry-server.tsx): that paint is inert, and stays until
// the first render below takes its place, in the same commit.
const painted = root.hasAttribute('inert') && root.firstElementChild !== null;

/** Makes the page live once the first render has replaced the server's paint (same commit, before paint). */
function Live() {
  useLayoutEffect(() => {
    root?.removeAttribute('inert');
  }, []);
  return null;
}

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <ConsoleRoot trpcClient={trpcClient} queryClient={queryClient} />
      <Live />
    </StrictMode>,
  );
// The first render waits (bounded) for the page's code, named as a preload in the HTML and so nearly in: a
// first render without it would show the page area's fallback, and React then holds back what replaces a
// fallback for a moment (300 ms), however soon the code arrives. Over a page the server painted, it may
// wait longer: the page is on screen meanwhile.
const codeWait = painted ? FIRST_CODE_WAIT_PAINTED_MS : FIRST_CODE_WAIT_MS;
if (first.code) void Promise.race([first.code, new Promise((resolve) => setTimeout(resolve, codeWait))]).then(render);
else render();
