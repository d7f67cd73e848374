const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL (and so the control plane) cannot store: the NUL character, and strings that are not
 * well-formed UTF-16 (a lone surrogate would be silently replaced). Answers a message naming the field,
 * e.g. `name: must not contain the NUL character`, or null when every string in `value` is fine.
 */
export function findMalformedText(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') {
    const where = path.length > 0 ? path.join('.') : 'input';
    if (value.includes('\u0000')) return `${where}: must not contain the NUL character`;
    if (LONE_SURROGATE.test(value)) return `${where}: must be valid Unicode text`;
    return null;
  }
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, item] of Object.entries(value)) {
    const problem = findMalformedText(key, path, depth + 1) ?? findMalformedText(item, [...path, key], depth + 1);
    if (problem) return problem;
  }
  return null;
}
