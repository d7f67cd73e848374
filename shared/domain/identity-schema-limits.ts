import { RE2JS } from 're2js';
import type { Options } from 'ajv';

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

/*
 * What an identity schema may cost before anything compiles it (as Kratos' schema/prevalidate.go checks a
 * schema before its compiler sees it): its size, its nesting, pure `$ref` cycles, how far its `$ref`s expand,
 * and patterns that a linear-time engine (RE2, as Kratos' Go regexp) cannot compile. A schema is any
 * tenant's input, compiled and run on a process every tenant shares: each bound keeps one schema from
 * stalling the others.
 */

/** The largest identity schema, as its JSON text (Kratos' MaxSchemaBodyBytes). */
export const MAX_SCHEMA_BYTES = 1 << 20;
/** The deepest nesting of objects and arrays. */
export const MAX_SCHEMA_DEPTH = 64;
/** The most objects a schema holds with each local `$ref` counted as a copy of what it names. */
export const MAX_SCHEMA_NODES = 1000;
/** The largest compiled program of one pattern (RE2's instructions). */
export const MAX_PATTERN_PROGRAM = 10_000;

/** One way a schema falls short: where (a JSON pointer into the schema, '' for the whole) and what to fix. */
export interface LimitProblem {
  pointer: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** A pattern compiled by RE2 (linear time in its input), or why it cannot be. */
export function re2Pattern(pattern: string): RE2JS {
  const compiled = RE2JS.compile(pattern);
  if (compiled.programSize() > MAX_PATTERN_PROGRAM) throw new Error(`the pattern is too large (at most ${MAX_PATTERN_PROGRAM} RE2 instructions)`);
  return compiled;
}

/** ajv's `code.regExp`: every `pattern` and `patternProperties` key runs on RE2, never on a backtracking engine. */
export const re2RegExp: RegExpEngine = Object.assign((pattern: string) => re2Pattern(pattern), { code: 're2Pattern' });

function patternProblem(pointer: string, pattern: string): LimitProblem | null {
  try {
    re2Pattern(pattern);
    return null;
  } catch (err) {
    const why = (err as Error).message.replace(/^error parsing regexp: /, '');
    return { pointer, message: `is not a regular expression the identity service accepts (RE2 syntax: no lookaround, no backreferences): ${why}` };
  }
}

/** The target pointer of a local `$ref` (`#`, `#/a/b`), or null for anything else. */
function localTarget(ref: string): string | null {
  if (ref === '#' || ref === '' || ref === '#/') return '';
  if (!ref.startsWith('#/')) return null;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return null;
  }
}

function nodeAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
  }
  return node;
}

/**
 * The problems that keep a schema from being compiled at all: too large, too deep, a pattern RE2 refuses,
 * a `$ref` that names only itself through other `$ref`s, or `$ref`s that expand it past MAX_SCHEMA_NODES.
 * `text` is the schema's JSON text when there is one (its size is measured on it). Empty when none.
 */
export function schemaLimitProblems(schema: unknown, text?: string): LimitProblem[] {
  const bytes = new TextEncoder().encode(text ?? JSON.stringify(schema) ?? '').length;
  if (bytes > MAX_SCHEMA_BYTES) {
    return [{ pointer: '', message: `is ${bytes} bytes; an identity schema is at most ${MAX_SCHEMA_BYTES} bytes (1 MiB)` }];
  }
  const problems: LimitProblem[] = [];
  const refs = new Map<string, string>();
  let tooDeep = false;

  const walk = (node: unknown, pointer: string, depth: number): void => {
    if (typeof node !== 'object' || node === null) return;
    if (depth > MAX_SCHEMA_DEPTH) {
      if (!tooDeep) problems.push({ pointer, message: `nests deeper than ${MAX_SCHEMA_DEPTH} levels; flatten the schema` });
      tooDeep = true;
      return;
    }
    if (!isObject(node)) {
      (node as unknown[]).forEach((item, i) => walk(item, `${pointer}/${i}`, depth + 1));
      return;
    }
    if (typeof node.$ref === 'string') {
      const target = localTarget(node.$ref);
      if (target !== null) refs.set(pointer, target);
    }
    if (typeof node.pattern === 'string') {
      const problem = patternProblem(`${pointer}/pattern`, node.pattern);
      if (problem) problems.push(problem);
    }
    if (isObject(node.patternProperties)) {
      for (const key of Object.keys(node.patternProperties)) {
        const problem = patternProblem(`${pointer}/patternProperties/${escapePointer(key)}`, key);
        if (problem) problems.push(problem);
      }
    }
    for (const [key, child] of Object.entries(node)) walk(child, `${pointer}/${escapePointer(key)}`, depth + 1);
  };
  walk(schema, '', 0);
  if (problems.length > 0) return problems;

  const cycle = refCycle(refs);
  if (cycle) return [{ pointer: cycle[0]!, message: `is a $ref cycle (${cycle.map((p) => `#${p}`).join(' → ')}) that names no schema; point it at one` }];

  const nodes = expandedNodes(schema, refs);
  if (nodes > MAX_SCHEMA_NODES) {
    return [
      {
        pointer: '',
        message: `has more than ${MAX_SCHEMA_NODES} subschemas once its $refs are expanded; an identity schema with fewer traits, or fewer $refs to large definitions, fits`,
      },
    ];
  }
  return [];
}

/** A chain of `$ref`s that comes back to where it started without passing any other schema, as pointers. */
function refCycle(refs: Map<string, string>): string[] | null {
  const done = new Set<string>();
  for (const start of refs.keys()) {
    if (done.has(start)) continue;
    const chain: string[] = [];
    let current: string | undefined = start;
    while (current !== undefined && !done.has(current)) {
      const at = chain.indexOf(current);
      if (at >= 0) return [...chain.slice(at), current];
      chain.push(current);
      current = refs.get(current);
    }
    for (const p of chain) done.add(p);
  }
  return null;
}

/**
 * How many objects the schema holds with every local `$ref` counted as a copy of its target (what a
 * compiler that inlines references, or a validator that follows them, works through). A `$ref` back to a
 * schema it is inside counts once: that recursion consumes the input. Stops counting past the limit.
 */
function expandedNodes(root: unknown, refs: Map<string, string>): number {
  const memo = new Map<string, number>();
  const open = new Set<string>();
  const cap = MAX_SCHEMA_NODES + 1;

  const size = (node: unknown, pointer: string): number => {
    if (typeof node !== 'object' || node === null) return 0;
    const known = memo.get(pointer);
    if (known !== undefined) return known;
    if (open.has(pointer)) return 1;
    open.add(pointer);
    let total = Array.isArray(node) ? 0 : 1;
    const entries: [string, unknown][] = Array.isArray(node) ? node.map((v, i) => [String(i), v]) : Object.entries(node);
    for (const [key, child] of entries) {
      if (total >= cap) break;
      total += size(child, `${pointer}/${escapePointer(key)}`);
    }
    const target = refs.get(pointer);
    if (target !== undefined && total < cap) total += size(nodeAt(root, target), target);
    open.delete(pointer);
    const bounded = Math.min(total, cap);
    memo.set(pointer, bounded);
    return bounded;
  };
  return size(root, '');
}
