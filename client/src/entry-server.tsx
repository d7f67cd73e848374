/**
 * The server's first paint of a signed-in page opened by URL: the page rendered to HTML from the first
 * answers its HTML carries (shared/first-queries.ts), so the browser shows it as soon as the document is
 * in, before the console's code has arrived. The browser then renders the console itself (main.tsx),
 * which takes the painted page's place in one commit; until then the painted page is inert.
 *
 * Built for Node into client/dist-ssr (client/vite.config.ts) and loaded by server/static-client.ts.
 */
import { createTRPCQueryUtils } from '@trpc/react-query';
import { observable } from '@trpc/server/observable';
import { renderToString } from 'react-dom/server';
import type { AppRouter } from '../../server/routers/_app';
import { inReaderTimeZone } from '../../shared/domain/format';
import { firstQueries, matchRoute, queryId, SESSION_QUERY, type FirstAnswer, type FirstQuery } from '../../shared/first-queries';
import { createQueryClient } from './lib/query-client';
import { fillAnswers } from './lib/route-prefetch';
import { InitialPlace } from './nav/transition-location';
import { PAGES } from './page-registry';
import { ROUTE_LIST } from './routes';
import { ConsoleRoot } from './shell/ConsoleRoot';
import { trpc } from './trpc';

/** A client that never answers: the first paint shows only what the HTML carries (a query it lacks stays loading). */
const silentClient = () =>
  trpc.createClient({
    links: [() => () => observable(() => () => undefined)],
  });

/**
 * The page at `url` (path and query) rendered from `answers`, or undefined when it is not a page the
 * server paints: not a signed-in page, a query string (its first queries depend on it), the visitor signed
 * out, or an answer of the session, the frame or the page missing (the page would paint as placeholders).
 * A refusal the page would not ask again comes as its error (server/first-data.ts) and is painted as such.
 * `answers` must be as the browser receives them (JSON); `timeZone`, the zone the visitor's browser named, is the
 * one its dates and times are written in.
 */
export async function renderFirstPaint(url: string, answers: readonly FirstAnswer[], options: { timeZone?: string } = {}): Promise<string | undefined> {
  const { pathname, search } = new URL(url, 'http://console.invalid');
  if (search !== '') return undefined;
  const match = matchRoute(ROUTE_LIST, pathname);
  if (!match || !match.route.available || !match.route.requiresAuth) return undefined;
  const answered = new Map(answers.map((answer) => [queryId([answer.path, answer.input]), answer.data]));
  const { frame, page } = firstQueries(match.route.id, match.params);
  const wanted: FirstQuery[] = [SESSION_QUERY, ...frame, ...page];
  // A refusal carried as an error is an answer too: the page shows it as it would have met it.
  if (!wanted.every((query) => answered.has(queryId(query)))) return undefined;
  if ((answered.get(queryId(SESSION_QUERY)) as { session?: unknown } | null | undefined)?.session == null) return undefined;

  // The page's own code, in before the render, so the page renders instead of suspending.
  await PAGES[match.route.page].preload();
  const queryClient = createQueryClient();
  const trpcClient = silentClient();
  fillAnswers(queryClient, createTRPCQueryUtils<AppRouter>({ queryClient, client: trpcClient }), answers);
  try {
    // Dates and times in the visitor's zone (an unknown one: the server's), as the client will write them.
    return inReaderTimeZone(options.timeZone, () =>
      renderToString(
        <InitialPlace.Provider value={{ path: pathname, search: '' }}>
          <ConsoleRoot trpcClient={trpcClient} queryClient={queryClient} />
        </InitialPlace.Provider>,
      ),
    );
  } finally {
    queryClient.clear();
  }
}
