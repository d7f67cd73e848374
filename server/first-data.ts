import { getTRPCErrorShape, TRPCError } from '@trpc/server';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { errorStatus, isClientError, shouldRetryActiveProject } from '../shared/domain/errors';
import { atPath, firstQueries, SESSION_QUERY, type FirstAnswer, type FirstError, type FirstQuery, type RouteParams } from '../shared/first-queries';
import { appRouter, createCaller } from './routers/_app';
import { createInnerContext } from './trpc/context';

type Procedure = (input?: unknown) => Promise<unknown>;

/** 4xx answers that mean "not now" rather than "no": the page asks again later. */
const TRANSIENT_STATUSES = new Set([408, 429]);

/**
 * A failed first query as the browser would have received it over tRPC, when the page would not ask it
 * again: a refusal (4xx) its retry rule stops at (client/src/lib/query-client.ts). Anything else (an
 * upstream down, a timeout, a rate limit) is left for the page to ask, and retry, itself.
 */
export function carriedError(path: string, input: unknown, error: unknown): FirstError | undefined {
  // The session decides the frame (signed in, signed out, a second factor to give): the page asks it itself.
  if (!(error instanceof TRPCError) || path === SESSION_QUERY[0]) return undefined;
  const shape = getTRPCErrorShape({ config: appRouter._def._config, error, type: 'query', path, input, ctx: undefined }) as FirstError;
  const status = errorStatus(shape);
  if (status === undefined || TRANSIENT_STATUSES.has(status) || !isClientError(shape)) return undefined;
  if (path === 'projects.getActive' && shouldRetryActiveProject(0, shape)) return undefined;
  return shape;
}

/**
 * The first answers of a signed-in page opened by URL (shared/first-queries.ts), asked of the console's
 * own procedures with the visitor's cookie, exactly as the page would ask them: the session first; when
 * signed in, the frame's and the page's queries at once. A refusal the page would not ask again is
 * carried as its error (carriedError), so the page shows it at once; any other failure, or a query not
 * answered within `waitMs` (the config's `firstAnswersWaitMs`), is left out: the page asks for it itself.
 */
export async function firstAnswers(req: FastifyRequest, routeId: string, params: RouteParams, waitMs = req.server.deps.config.firstAnswersWaitMs): Promise<FirstAnswer[]> {
  const ctx = createInnerContext({ deps: req.server.deps, cookie: req.headers.cookie, requestId: String(req.id), log: req.log as unknown as Logger });
  const caller = createCaller(ctx);
  const answers: FirstAnswer[] = [];
  const ask = async ([path, input]: FirstQuery): Promise<void> => {
    let data: unknown;
    try {
      data = await atPath<Procedure>(caller, path)(input);
    } catch (error) {
      const carried = carriedError(path, input, error);
      if (carried) answers.push(input === undefined ? { path, error: carried } : { path, input, error: carried });
      throw error;
    }
    answers.push(input === undefined ? { path, data } : { path, input, data });
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  try {
    const signedIn = await Promise.race([
      ask(SESSION_QUERY).then(
        () => (answers[0]?.data as { session?: unknown } | undefined)?.session != null,
        () => false,
      ),
      deadline.then(() => false),
    ]);
    if (!signedIn) return answers;
    const { frame, page } = firstQueries(routeId, params);
    await Promise.race([Promise.allSettled([...frame, ...page].map(ask)), deadline]);
    // Answers that arrive after the deadline are not sent: copy what is in now.
    return answers.slice();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A value (the answers, or the code a painted page loads) as the text of a `<script type="application/json">`
 * element: JSON in which nothing can end the element or open a comment (`<`, `>`, `&` and the two JavaScript
 * line separators escaped).
 */
export function scriptJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
