import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { atPath, firstQueries, SESSION_QUERY, type FirstAnswer, type FirstQuery, type RouteParams } from '../shared/first-queries';
import { createCaller } from './routers/_app';
import { createInnerContext } from './trpc/context';

/** How long the HTML waits for the first answers; what is not in by then the page asks for itself. */
export const FIRST_ANSWERS_WAIT_MS = 800;

type Procedure = (input?: unknown) => Promise<unknown>;

/**
 * The first answers of a signed-in page opened by URL (shared/first-queries.ts), asked of the console's
 * own procedures with the visitor's cookie, exactly as the page would ask them: the session first; when
 * signed in, the frame's and the page's queries at once. A query that fails, or is not answered within
 * `waitMs`, is left out: the page asks for it itself and meets the error where it handles errors.
 */
export async function firstAnswers(req: FastifyRequest, routeId: string, params: RouteParams, waitMs = FIRST_ANSWERS_WAIT_MS): Promise<FirstAnswer[]> {
  const ctx = createInnerContext({ deps: req.server.deps, cookie: req.headers.cookie, requestId: String(req.id), log: req.log as unknown as Logger });
  const caller = createCaller(ctx);
  const answers: FirstAnswer[] = [];
  const ask = async ([path, input]: FirstQuery): Promise<void> => {
    const data = await atPath<Procedure>(caller, path)(input);
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
 * The answers as the text of a `<script type="application/json">` element: JSON in which nothing can
 * end the element or open a comment (`<`, `>`, `&` and the two JavaScript line separators escaped).
 */
export function answersScriptText(answers: readonly FirstAnswer[]): string {
  return JSON.stringify(answers).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
