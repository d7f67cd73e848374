/**
 * What an edit form sends: only the fields the user changed, so every field the form does not render
 * (and every field another tab changed meanwhile) survives the save.
 */

/** One RFC 6902 operation on a top-level field. */
export type FieldPatchOperation =
  | { op: 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

/** Structural equality of JSON values (objects compared key by key, arrays item by item). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    if (!sameJson(left[key], right[key])) return false;
  }
  return true;
}

/** The fields of `edited` whose values differ from `saved`; fields missing from `edited` are not touched. */
export function changedFields<T extends Record<string, unknown>>(saved: Partial<T>, edited: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(edited) as (keyof T)[]) {
    if (!sameJson(saved[key], edited[key])) out[key] = edited[key];
  }
  return out;
}

/** A JSON pointer segment: '~' becomes '~0' and '/' becomes '~1' (RFC 6901). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The JSON patch that applies `changes` onto `saved`: `replace` for a field that exists, `add` for a
 * new one, `remove` for a field set to undefined. Nothing else in the document is touched.
 */
export function changesToPatch(saved: Record<string, unknown>, changes: Record<string, unknown>): FieldPatchOperation[] {
  const ops: FieldPatchOperation[] = [];
  for (const [key, value] of Object.entries(changes)) {
    const path = `/${pointerSegment(key)}`;
    const exists = Object.prototype.hasOwnProperty.call(saved, key) && saved[key] !== undefined;
    if (value === undefined) {
      if (exists) ops.push({ op: 'remove', path });
    } else {
      ops.push({ op: exists ? 'replace' : 'add', path, value });
    }
  }
  return ops;
}
