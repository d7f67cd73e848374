import jsonpatch, { type Operation } from 'fast-json-patch';
import { z } from 'zod';
import { badRequest } from './errors';

/** Most operations one patch may carry. */
export const MAX_PATCH_OPERATIONS = 100;
/** Largest document (serialized JSON, bytes) a patch may produce: the request body limit, so a PUT-able document stays patchable. */
export const MAX_PATCHED_DOCUMENT_BYTES = 1024 * 1024;

const pointer = z.string().regex(/^(\/.*)?$/, { message: 'Must be a JSON pointer such as /name' });

/** RFC 6902 JSON Patch: add, remove, replace, move, copy and test on plain JSON documents. */
export const jsonPatchSchema = z
  .array(
    z.object({
      op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
      path: pointer,
      from: pointer.optional(),
      value: z.unknown().optional(),
    }),
  )
  .max(MAX_PATCH_OPERATIONS, {
    message: `A JSON patch may carry at most ${MAX_PATCH_OPERATIONS} operations; split it into smaller patches.`,
  });
export type JsonPatch = z.infer<typeof jsonPatchSchema>;
type PatchOperation = JsonPatch[number];

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function fail(index: number, message: string): never {
  throw badRequest(`Invalid JSON patch at operation ${index}: ${message}`);
}

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => typeof value === 'object' && value !== null;

/** Whether `key` names an own member of `node` (an index inside an array, an own property of an object). */
function hasMember(node: unknown, key: string): boolean {
  if (Array.isArray(node)) return /^(0|[1-9]\d*)$/.test(key) && Number(key) < node.length;
  return isContainer(node) && Object.hasOwn(node, key);
}

function member(node: unknown, key: string): unknown {
  return Array.isArray(node) ? node[Number(key)] : (node as Record<string, unknown>)[key];
}

/**
 * Walks own members only (never the prototype chain, never `__proto__`): the value at `pointer`, or the
 * parent of its last token when `parentOnly`. Fails with a message naming the missing part.
 */
function resolve(doc: unknown, pointer: string, index: number, parentOnly: boolean): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) fail(index, 'the document root cannot be the target');
  if (tokens.includes('__proto__')) fail(index, '"__proto__" is not an allowed key');
  const walk = parentOnly ? tokens.slice(0, -1) : tokens;
  let node = doc;
  for (const token of walk) {
    if (!hasMember(node, token)) fail(index, `the path ${pointer} does not exist`);
    node = member(node, token);
  }
  if (parentOnly && !isContainer(node)) fail(index, `the parent of ${pointer} is not an object or array`);
  return node;
}

/** Checks the operation against the document before fast-json-patch applies it; answers the value it reads, if any. */
function check(doc: unknown, op: PatchOperation, index: number): { read?: unknown } {
  if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && op.value === undefined) {
    fail(index, `"value" is required for "${op.op}"`);
  }
  if (op.op === 'move' || op.op === 'copy') {
    if (op.from === undefined) fail(index, `"from" is required for "${op.op}"`);
    if (op.op === 'move' && op.path.startsWith(`${op.from}/`)) fail(index, `${op.from} cannot be moved into itself`);
    const read = resolve(doc, op.from, index, false);
    resolveTarget(doc, op, index);
    return { read };
  }
  if (op.op === 'add') {
    resolveTarget(doc, op, index);
    return {};
  }
  return { read: resolve(doc, op.path, index, false) };
}

/** The parent of an add/move/copy target must exist; in an array the last token is an index up to its length, or `-`. */
function resolveTarget(doc: unknown, op: PatchOperation, index: number): void {
  const parent = resolve(doc, op.path, index, true);
  const key = parsePointer(op.path).at(-1)!;
  if (!Array.isArray(parent) || key === '-') return;
  if (!/^(0|[1-9]\d*)$/.test(key)) fail(index, `"${key}" is not an array index`);
  if (Number(key) > parent.length) fail(index, `array index ${key} is out of range (the array has ${parent.length} items)`);
}

const byteSize = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '');

function tooLarge(index: number, op: PatchOperation): never {
  throw badRequest(
    `Invalid JSON patch at operation ${index} (${op.op} ${op.path}): the patched document would exceed ` +
      `${MAX_PATCHED_DOCUMENT_BYTES} bytes. Patch smaller values, or fewer copies.`,
  );
}

/**
 * Applies the patch to a copy of `doc` with fast-json-patch. The size of the result is kept under
 * MAX_PATCHED_DOCUMENT_BYTES after every operation: a running upper bound grows by each value an operation
 * brings in (measured before a copy is made), and the document is measured exactly only when that bound
 * crosses the limit, so a chain of copies is refused before it materialises a large document.
 */
export function applyJsonPatch<T extends Record<string, unknown>>(doc: T, patch: JsonPatch): T {
  if (patch.length > MAX_PATCH_OPERATIONS) {
    throw badRequest(`A JSON patch may carry at most ${MAX_PATCH_OPERATIONS} operations; split it into smaller patches.`);
  }
  const out = structuredClone(doc);
  let bound = byteSize(out);
  if (bound > MAX_PATCHED_DOCUMENT_BYTES) fail(0, `the document is already larger than ${MAX_PATCHED_DOCUMENT_BYTES} bytes`);
  patch.forEach((op, index) => {
    const { read } = check(out, op, index);
    if (op.op === 'add' || op.op === 'replace') bound += byteSize(op.value) + op.path.length + 4;
    if (op.op === 'copy') bound += byteSize(read) + op.path.length + 4;
    if (bound > MAX_PATCHED_DOCUMENT_BYTES) {
      // The bound only grows; measure what is really there (before this operation) plus what it adds.
      const added = op.op === 'copy' ? byteSize(read) : op.op === 'test' || op.op === 'remove' || op.op === 'move' ? 0 : byteSize(op.value);
      bound = byteSize(out) + added + op.path.length + 4;
      if (bound > MAX_PATCHED_DOCUMENT_BYTES) tooLarge(index, op);
    }
    try {
      jsonpatch.applyOperation(out, structuredClone(op) as Operation, true, true, true, index);
    } catch (error) {
      fail(index, describePatchError(error, op));
    }
  });
  if (byteSize(out) > MAX_PATCHED_DOCUMENT_BYTES) tooLarge(patch.length - 1, patch[patch.length - 1]!);
  return out;
}

/** fast-json-patch's error names → what to fix. */
function describePatchError(error: unknown, op: PatchOperation): string {
  const name = (error as { name?: string }).name;
  switch (name) {
    case 'TEST_OPERATION_FAILED':
      return `the value at ${op.path} is not the expected one`;
    case 'OPERATION_PATH_UNRESOLVABLE':
    case 'OPERATION_PATH_CANNOT_ADD':
      return `the path ${op.path} does not exist`;
    case 'OPERATION_FROM_UNRESOLVABLE':
      return `the path ${op.from ?? ''} does not exist`;
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return `${op.path} does not end in an array index`;
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
      return `the array index in ${op.path} is out of range`;
    case 'OPERATION_VALUE_REQUIRED':
    case 'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED':
      return `"value" is required for "${op.op}"`;
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** The first path segment of every operation (and of `from`), to check which fields a patch touches. */
export function touchedRoots(patch: JsonPatch): string[] {
  const roots = new Set<string>();
  for (const op of patch) {
    for (const p of [op.path, op.from]) if (p !== undefined) roots.add(parsePointer(p)[0] ?? '');
  }
  return [...roots];
}
