import { create } from 'jsondiffpatch';
import { format } from 'jsondiffpatch/formatters/jsonpatch';
import type { ConfigChange } from '../../../shared/schemas/project-history';

/** Array items are compared in place (no move detection), so every change reads as an add, a remove or a replace. */
const differ = create({ arrays: { detectMove: false } });

/** The most changes one revision shows; a larger change (an imported configuration) is cut, and says so. */
export const MAX_CHANGES = 500;

function at(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** An added or removed object, read as its leaves: each setting on its own line, at its own path. */
function leaves(path: string, value: unknown): [string, unknown][] {
  if (!isObject(value) || Object.keys(value).length === 0) return [[path, value]];
  return Object.entries(value).flatMap(([k, v]) => leaves(`${path}/${escape(k)}`, v));
}

/** Arrays longer than this are compared whole: jsondiffpatch matches array items pairwise (time and memory grow with the product of the lengths). */
export const LONG_ARRAY = 200;

/**
 * Both documents with every pair of long arrays at the same place taken out (the same placeholder on both
 * sides), and a whole-array replace recorded for each pair that differs: what the diff is left with is bounded.
 */
function withoutLongArrays(before: unknown, after: unknown, path: string, whole: ConfigChange[]): [unknown, unknown] {
  if (Array.isArray(before) && Array.isArray(after) && (before.length > LONG_ARRAY || after.length > LONG_ARRAY)) {
    if (JSON.stringify(before) !== JSON.stringify(after)) whole.push({ op: 'replace', path, before, after });
    return [null, null];
  }
  if (!isObject(before) || !isObject(after)) return [before, after];
  const b: Record<string, unknown> = { ...before };
  const a: Record<string, unknown> = { ...after };
  for (const key of Object.keys(before)) {
    if (key in after) [b[key], a[key]] = withoutLongArrays(before[key], after[key], `${path}/${escape(key)}`, whole);
  }
  return [b, a];
}

/**
 * What changed from `before` to `after`, as JSON-pointer operations with the value before and after each
 * (computed with jsondiffpatch, read through its JSON Patch formatter; long arrays compared whole).
 */
export function configChanges(before: unknown, after: unknown): { changes: ConfigChange[]; truncated: boolean } {
  const changes: ConfigChange[] = [];
  const [left, right] = withoutLongArrays(before, after, '', changes);
  const delta = differ.diff(left, right);
  if (!delta) return { changes: changes.slice(0, MAX_CHANGES), truncated: changes.length > MAX_CHANGES };
  for (const op of format(delta)) {
    if (op.op === 'add') for (const [path, value] of leaves(op.path, op.value)) changes.push({ op: 'add', path, after: value });
    else if (op.op === 'remove') for (const [path, value] of leaves(op.path, at(before, op.path))) changes.push({ op: 'remove', path, before: value });
    else if (op.op === 'replace') changes.push({ op: 'replace', path: op.path, before: at(before, op.path), after: op.value });
  }
  return { changes: changes.slice(0, MAX_CHANGES), truncated: changes.length > MAX_CHANGES };
}
