import type { Queryable } from '../db/types';
import { pgErrorCode } from '../db/errors';
import { badRequest } from '../kernel/errors';

/*
 * A user's regular expression runs inside the database (`~`). Two guards keep one request from holding a
 * connection for minutes: patterns whose matching can blow up are refused before anything runs (the only
 * guard on PGlite, which has no statement timeout), and on PostgreSQL the statement is cancelled past a
 * deadline (`SET LOCAL statement_timeout`, so only the request's own transaction is affected).
 */

/** How long one event query may run on PostgreSQL before it is cancelled. */
export const EVENT_QUERY_TIMEOUT_MS = 5_000;

const MAX_PATTERN = 200;
const MAX_REPEAT = 100;

/**
 * Why `pattern` is refused, or null when it may run: a pattern both JavaScript and PostgreSQL read the same
 * way (plain characters, classes, groups, alternation, quantifiers), without what makes matching
 * exponential or lets the automaton grow without bound: back-references, a quantified group holding a
 * quantifier (`(a+)+`), and counted repetitions above 100.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN) return `has more than ${MAX_PATTERN} characters`;
  if (/\\[pPk]|\(\?/.test(pattern)) return 'uses a construct only one engine knows (lookaround, named groups, \\p, \\k)';
  try {
    new RegExp(pattern);
  } catch {
    return 'is not a valid regular expression';
  }
  // Walk the pattern once: escapes and classes skipped, and per open group whether it holds a quantifier.
  const open: boolean[] = [];
  let closedHadQuantifier = false; // the previous token closed a group that holds a quantifier
  let afterQuantifier = false; // the previous token was a quantifier (a '?' after it makes it lazy)
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    let counted: RegExpExecArray | null = null;
    if (c === '{') counted = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (c === '*' || c === '+' || c === '?' || counted) {
      if (c === '?' && afterQuantifier) {
        afterQuantifier = false;
        continue;
      }
      if (counted) {
        if (Number(counted[1]) > MAX_REPEAT || (counted[3] && Number(counted[3]) > MAX_REPEAT)) return `repeats more than ${MAX_REPEAT} times`;
        i += counted[0].length - 1;
      }
      // '?' takes a group at most once, which repeats nothing.
      if (closedHadQuantifier && c !== '?') return 'repeats a group that itself repeats, whose matching can take exponential time';
      if (open.length > 0) open[open.length - 1] = true;
      closedHadQuantifier = false;
      afterQuantifier = true;
      continue;
    }
    afterQuantifier = false;
    closedHadQuantifier = false;
    if (c === '\\') {
      if (/[1-9]/.test(pattern[i + 1] ?? '')) return 'uses a back-reference (\\1 …), whose matching can take exponential time';
      i++;
    } else if (c === '[') {
      // Skip the class: a ']' first in it is literal, escapes are skipped.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(') {
      open.push(false);
    } else if (c === ')') {
      const had = open.pop() ?? false;
      if (had && open.length > 0) open[open.length - 1] = true;
      closedHadQuantifier = had;
    }
  }
  return null;
}

/**
 * Runs `fn` (queries on `q`, a transaction) under the PostgreSQL statement timeout, and answers what the
 * database refused of the user's pattern (too complex, cancelled) as a 400 that says what to change.
 */
export async function withStatementTimeout<T>(q: Queryable, ms: number, fn: () => Promise<T>): Promise<T> {
  await q.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(ms))}`);
  try {
    return await fn();
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === '57014') throw badRequest('The query ran too long and was stopped; choose a shorter range or a simpler filter.');
    if (code === '2201B') throw badRequest('A regex filter is too complex for the database; simplify it.');
    throw err;
  }
}
