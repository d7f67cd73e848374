/**
 * Known bugs and omissions of Ory's published spec itself: answers that are right on the wire (what
 * Ory's servers send) but that the spec describes wrongly. Each entry says why. A bug of the local stack
 * never goes here; it is fixed instead.
 *
 * `path` is the spec's (or orphan table's) template, e.g. `/projects/{project_id}`. `instancePath` is a
 * JSON pointer into the body where `*` stands for any one segment; left out, every problem of the answer
 * matches.
 */
export interface AllowlistEntry {
  method: string;
  path: string;
  status?: number;
  instancePath?: string;
  reason: string;
}

export const WIRE_ALLOWLIST: AllowlistEntry[] = [];

export function matchAllowlist(
  entries: AllowlistEntry[],
  answer: { method: string; path: string; status: number; problem: { instancePath: string } },
): AllowlistEntry | undefined {
  return entries.find(
    (e) =>
      e.method === answer.method.toUpperCase() &&
      e.path === answer.path &&
      (e.status === undefined || e.status === answer.status) &&
      (e.instancePath === undefined || pointerMatches(e.instancePath, answer.problem.instancePath)),
  );
}

function pointerMatches(pattern: string, pointer: string): boolean {
  const want = pattern.split('/');
  const got = pointer.split('/');
  return want.length === got.length && want.every((segment, i) => segment === '*' || segment === got[i]);
}
