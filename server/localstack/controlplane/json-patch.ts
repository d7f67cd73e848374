import { z } from 'zod';
import { badRequest } from './errors';

/** RFC 6902 JSON Patch: add, remove, replace, move, copy and test on plain JSON documents. */
export const jsonPatchSchema = z
  .array(
    z.object({
      op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
      path: z.string().regex(/^(\/.*)?$/, { message: 'Must be a JSON pointer such as /name' }),
      from: z.string().regex(/^(\/.*)?$/, { message: 'Must be a JSON pointer' }).optional(),
      value: z.unknown().optional(),
    }),
  )
  .max(1000);
export type JsonPatch = z.infer<typeof jsonPatchSchema>;

type Container = Record<string, unknown> | unknown[];

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

function fail(index: number, message: string): never {
  throw badRequest(`Invalid JSON patch at operation ${index}: ${message}`);
}

/** Walks to the parent of the pointer's last token. */
/** Walks own properties only, and never through or onto `__proto__`. */
function parentOf(doc: unknown, tokens: string[], index: number): { parent: Container; key: string } {
  if (tokens.length === 0) fail(index, 'the document root cannot be the target');
  if (tokens.includes('__proto__')) fail(index, '"__proto__" is not an allowed key');
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (!isContainer(node)) fail(index, `"${token}" is not inside an object or array`);
    if (!Object.hasOwn(node, token)) fail(index, `"${token}" does not exist`);
    node = Array.isArray(node) ? node[Number(token)] : node[token];
  }
  if (!isContainer(node)) fail(index, 'the parent of the path does not exist');
  return { parent: node, key: tokens[tokens.length - 1]! };
}

function arrayIndex(arr: unknown[], key: string, index: number, allowEnd: boolean): number {
  if (allowEnd && key === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) fail(index, `"${key}" is not an array index`);
  const i = Number(key);
  if (i > arr.length || (!allowEnd && i === arr.length)) fail(index, `array index ${i} is out of range`);
  return i;
}

function read(doc: unknown, pointer: string, index: number): unknown {
  let node = doc;
  for (const token of parsePointer(pointer)) {
    if (!isContainer(node)) fail(index, `the path ${pointer} does not exist`);
    const has = Array.isArray(node) ? /^\d+$/.test(token) && Number(token) < node.length : Object.hasOwn(node, token);
    if (!has) fail(index, `the path ${pointer} does not exist`);
    node = Array.isArray(node) ? node[Number(token)] : (node as Record<string, unknown>)[token];
  }
  return node;
}

function add(doc: unknown, pointer: string, value: unknown, index: number): void {
  const { parent, key } = parentOf(doc, parsePointer(pointer), index);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, index, true), 0, value);
  else parent[key] = value;
}

function remove(doc: unknown, pointer: string, index: number): unknown {
  const { parent, key } = parentOf(doc, parsePointer(pointer), index);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, index, false), 1)[0];
  if (!Object.hasOwn(parent, key)) fail(index, `the path ${pointer} does not exist`);
  const old = parent[key];
  delete parent[key];
  return old;
}

const clone = <T>(value: T): T => structuredClone(value);

export function applyJsonPatch<T extends Record<string, unknown>>(doc: T, patch: JsonPatch): T {
  const out = clone(doc);
  patch.forEach((op, index) => {
    const needsValue = op.op === 'add' || op.op === 'replace' || op.op === 'test';
    if (needsValue && op.value === undefined) fail(index, `"value" is required for "${op.op}"`);
    switch (op.op) {
      case 'add':
        add(out, op.path, clone(op.value), index);
        break;
      case 'remove':
        remove(out, op.path, index);
        break;
      case 'replace':
        read(out, op.path, index);
        remove(out, op.path, index);
        add(out, op.path, clone(op.value), index);
        break;
      case 'move':
      case 'copy': {
        if (op.from === undefined) fail(index, `"from" is required for "${op.op}"`);
        const value = op.op === 'move' ? remove(out, op.from, index) : clone(read(out, op.from, index));
        add(out, op.path, value, index);
        break;
      }
      case 'test':
        if (JSON.stringify(read(out, op.path, index)) !== JSON.stringify(op.value)) {
          fail(index, `the value at ${op.path} is not the expected one`);
        }
        break;
    }
  });
  return out;
}

/** The first path segment of every operation (and of `from`), to check which fields a patch touches. */
export function touchedRoots(patch: JsonPatch): string[] {
  const roots = new Set<string>();
  for (const op of patch) {
    for (const p of [op.path, op.from]) if (p !== undefined) roots.add(parsePointer(p)[0] ?? '');
  }
  return [...roots];
}
