import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { refTo, toJsonSchema } from './openapi-schema';
import { alternativeEntries, matchAllowlist, WIRE_ALLOWLIST, type AllowlistEntry } from './wire-allowlist';
import { ORPHAN_ROUTES, type OrphanRoute } from './wire-orphans';

/** One answer of the local stack, as it went on the wire. */
export interface WireAnswer {
  method: string;
  /** The request URL as received (path and query). */
  url: string;
  /** The route that answered (Fastify's template), or null when no route matched (the not-found answer). */
  route: string | null;
  status: number;
  contentType?: string | undefined;
  /** The body as sent; undefined or '' for none. */
  body?: string | undefined;
}

export interface WireProblem {
  /** JSON pointer into the body ('' = the answer as a whole: status, content type, unmapped path). */
  instancePath: string;
  message: string;
}

export type WireOutcome =
  | { kind: 'valid'; operation: string }
  | { kind: 'allowlisted'; operation: string; reasons: string[] }
  | { kind: 'mismatch'; operation: string; problems: WireProblem[] }
  | { kind: 'local-only'; operation: string; reason: string };

interface OpenApiResponse {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface OpenApiOperation {
  operationId?: string;
  responses?: Record<string, OpenApiResponse>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown>; responses?: Record<string, OpenApiResponse> };
}

/** A published spec; earlier entries win when several define the same path. */
export interface WireSpec {
  /** A short name; also the JSON Schema $id of its definitions. */
  id: string;
  doc: OpenApiDoc;
}

export interface WireValidatorOptions {
  specs: WireSpec[];
  /** Routes the published specs lack, mapped to the orphan schemas that describe their answers. */
  orphans?: OrphanRoute[];
  allowlist?: AllowlistEntry[];
}

export interface WireValidator {
  check(answer: WireAnswer): WireOutcome;
}

/** The local stack's per-project base path of the data plane. */
const PROJECT_BASE = /^\/project-api\/[^/]+(?=\/|$)/;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
/** OpenAPI annotations (and Ory's vendor extensions) that say nothing about validity. */
const ANNOTATIONS = ['example', 'x-go-enum-desc', 'x-omitempty', 'x-enum-varnames'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface Template {
  method: string;
  path: string;
  pattern: RegExp;
  literals: number;
}

function template(method: string, path: string): Template {
  const segments = path.split('/');
  const source = segments
    .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { method, path, pattern: new RegExp(`^${source}$`), literals: segments.filter((s) => !s.startsWith('{')).length };
}

/** The concrete path of a request URL: query dropped, the per-project base prefix stripped. */
export function wirePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.replace(PROJECT_BASE, '') || '/';
}

/** The template that matches a concrete path best (most literal segments), if any. */
export function matchTemplate<T extends { method: string; path: string }>(
  entries: T[],
  method: string,
  path: string,
): T | undefined {
  let best: { entry: T; literals: number } | undefined;
  for (const entry of entries) {
    if (entry.method !== '*' && entry.method !== method.toUpperCase()) continue;
    const t = template(entry.method, entry.path);
    if (!t.pattern.test(path)) continue;
    if (!best || t.literals > best.literals) best = { entry, literals: t.literals };
  }
  return best?.entry;
}

export function createWireValidator(opts: WireValidatorOptions): WireValidator {
  const ajv = new Ajv({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('uuid4', UUID);
  for (const [name, max] of [['uint8', 255], ['uint32', 2 ** 32 - 1], ['uint64', Number.MAX_SAFE_INTEGER]] as const) {
    ajv.addFormat(name, { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= max });
  }
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  for (const spec of opts.specs) {
    const definitions = Object.fromEntries(
      Object.entries(spec.doc.components.schemas).map(([name, s]) => [name, toJsonSchema(s, spec.id)]),
    );
    ajv.addSchema({ $id: spec.id, definitions });
  }
  const operations = opts.specs.flatMap((spec) =>
    Object.entries(spec.doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => METHODS.includes(m))
        .map(([m, op]) => ({ method: m.toUpperCase(), path, spec, op })),
    ),
  );
  const orphans = opts.orphans ?? [];
  const allowlist = opts.allowlist ?? [];
  const compiled = new Map<string, ValidateFunction>();
  const compile = (key: string, schema: () => unknown) => {
    let fn = compiled.get(key);
    if (!fn) {
      fn = ajv.compile(schema() as object);
      compiled.set(key, fn);
    }
    return fn;
  };

  function expected(answer: WireAnswer, path: string): Expectation {
    if (answer.route === null) {
      return { label: `no route (${answer.method} ${path})`, template: path, json: named(opts.specs[0]!, 'errorGeneric') };
    }
    // Among all specs the best-matching template wins; on a tie, the earlier (newer) spec.
    const op = matchTemplate(operations, answer.method, path);
    const orphan = matchTemplate(orphans, answer.method, path);
    if (op && (!orphan || template('', op.path).literals >= template('', orphan.path).literals)) {
      return fromOperation(op.spec, op.method, op.path, op.op, answer.status);
    }
    if (orphan) return fromOrphan(orphan, answer.status);
    return { label: `${answer.method} ${path}`, template: path, problem: 'unmapped answer: no operation of the published spec and no orphan route' };
  }

  function fromOperation(spec: WireSpec, method: string, path: string, op: OpenApiOperation, status: number): Expectation {
    const label = `${method} ${path} (${spec.id} ${op.operationId ?? '?'})`;
    let response = op.responses?.[String(status)] ?? op.responses?.default;
    if (!response) return { label, template: path, problem: `status ${status} is not a response of ${op.operationId}` };
    if (response.$ref) {
      const name = response.$ref.replace('#/components/responses/', '');
      response = spec.doc.components.responses?.[name];
      if (!response) throw new Error(`${spec.id}: unresolved response ${name}`);
    }
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return { label, template: path, json: null };
    const key = `${spec.id} ${method} ${path} ${status}`;
    return { label, template: path, json: compile(key, () => toJsonSchema(schema, spec.id)) };
  }

  function fromOrphan(row: OrphanRoute, status: number): Expectation {
    const label = `${row.method} ${row.path} (orphan route)`;
    if ('localOnly' in row) return { label, template: row.path, localOnly: row.localOnly };
    const name = String(status) in row.responses ? row.responses[String(status)] : status >= 400 ? row.responses.default : undefined;
    if (name === undefined) return { label, template: row.path, problem: `status ${status} is not mapped for this route` };
    return { label: `${label} → ${name ?? 'no body'}`, template: row.path, json: name === null ? null : named(opts.specs[0]!, name) };
  }

  function named(spec: WireSpec, name: string): ValidateFunction {
    if (!(name in spec.doc.components.schemas)) throw new Error(`${spec.id} has no schema ${name}`);
    return compile(`${spec.id} #${name}`, () => ({ $ref: refTo(spec.id, `#/components/schemas/${name}`) }));
  }

  return {
    check(answer) {
      const path = wirePath(answer.url);
      const exp = expected(answer, path);
      if (exp.localOnly) return { kind: 'local-only', operation: exp.label, reason: exp.localOnly };
      const problems = exp.problem ? [{ instancePath: '', message: exp.problem }] : bodyProblems(answer, exp.json ?? null);
      if (problems.length === 0) return { kind: 'valid', operation: exp.label };
      const where = { method: answer.method, path: exp.template, status: answer.status };
      const allowed = (found: WireProblem[]) => allowedBy(allowlist, where, found);
      const reasons = allowed(problems);
      if (reasons) return { kind: 'allowlisted', operation: exp.label, reasons };
      for (const entry of alternativeEntries(allowlist, where)) {
        const also = allowed(bodyProblems(answer, named(opts.specs[0]!, entry.alternative)));
        if (also) return { kind: 'allowlisted', operation: exp.label, reasons: [entry.reason, ...also.filter((r) => r !== entry.reason)] };
      }
      return { kind: 'mismatch', operation: exp.label, problems };
    },
  };
}

/** The reasons that allow every one of the problems (none for no problems), or null when one is not allowed. */
function allowedBy(allowlist: AllowlistEntry[], where: { method: string; path: string; status: number }, problems: WireProblem[]): string[] | null {
  const reasons: string[] = [];
  for (const problem of problems) {
    const entry = matchAllowlist(allowlist, { ...where, problem });
    if (!entry) return null;
    if (!reasons.includes(entry.reason)) reasons.push(entry.reason);
  }
  return reasons;
}

interface Expectation {
  label: string;
  /** The template the answer matched (for the allowlist). */
  template: string;
  /** The body's validator; null = the spec declares no body. */
  json?: ValidateFunction | null;
  problem?: string;
  localOnly?: string;
}

function bodyProblems(answer: WireAnswer, json: ValidateFunction | null): WireProblem[] {
  const body = answer.body ?? '';
  if (json === null) {
    return body === '' ? [] : [{ instancePath: '', message: `the spec declares no body for ${answer.status}, got ${answer.contentType ?? 'no content type'}` }];
  }
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(answer.contentType ?? '')) {
    return [{ instancePath: '', message: `the spec declares application/json, got ${answer.contentType ?? 'no content type'}` }];
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return [{ instancePath: '', message: 'the body is not JSON' }];
  }
  if (json(value)) return [];
  return (json.errors ?? []).filter(isLeaf).map(describe);
}

/** Summary errors (if/then, anyOf) repeat what their branches already say. */
function isLeaf(e: ErrorObject): boolean {
  return e.keyword !== 'if';
}

function describe(e: ErrorObject): WireProblem {
  const params = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : e.keyword === 'enum' ? ` (${JSON.stringify(e.params.allowedValues)})` : '';
  return { instancePath: e.instancePath, message: `${e.message ?? e.keyword}${params} [${e.schemaPath}]` };
}

/** Ory's published specs, read once: the current one first, then the historical one (console active project, metrics). */
export function loadOrySpecs(root = fileURLToPath(new URL('../../vendor/ory-openapi/', import.meta.url))): WireSpec[] {
  return ['v1.22.65', 'v1.11.7'].map((version) => ({
    id: `ory-client-${version}`,
    doc: JSON.parse(readFileSync(resolve(root, `ory-client-${version}.json`), 'utf8')) as OpenApiDoc,
  }));
}

let shared: WireValidator | undefined;

/** The validator of the integration suite: Ory's specs, the orphan routes and the allowlist. */
export function oryWireValidator(): WireValidator {
  shared ??= createWireValidator({ specs: loadOrySpecs(), orphans: ORPHAN_ROUTES, allowlist: WIRE_ALLOWLIST });
  return shared;
}
