import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { NavigationGuardDialog } from './components/NavigationGuardDialog';
import { consoleAnalytics } from './lib/analytics';
import { installNavigationGuard } from './lib/navigation-guard';
import { createQueryClient } from './lib/query-client';
import { FIRST_CODE_WAIT_MS, prefetchRoute } from './lib/route-prefetch';
import { whenLoadedAndIdle } from './nav/preload';
import { initTheme } from './nav/theme';
import { ROUTE_LIST } from './routes';
import { AppShell } from './shell/AppShell';
import { holdFirstPage } from './shell/first-data';
import { createTrpcClient, trpc } from './trpc';
import './styles.css';
import './styles/components.css';
import './styles/frame.css';

// Before the router subscribes to popstate, so back/forward can be held while a form has changes.
installNavigationGuard();

// Before the first render, so the page never flashes in the wrong theme.
initTheme();

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

function App() {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <AppShell />
        <NavigationGuardDialog />
      </QueryClientProvider>
    </trpc.Provider>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// The first render waits (bounded) for the page's code, named as a preload in the HTML and so nearly in: a
// first render without it would show the page area's fallback, and React then holds back what replaces a
// fallback for a moment (300 ms), however soon the code arrives.
if (first.code) void Promise.race([first.code, new Promise((resolve) => setTimeout(resolve, FIRST_CODE_WAIT_MS))]).then(render);
else render();
