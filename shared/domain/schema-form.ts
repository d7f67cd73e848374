/*
 * The form an identity schema produces (spec: identities are created and edited from their schema): the
 * traits' properties as fields — types, formats, required, enums, nested objects, lists of values. The
 * validation (ajv, as the identity provider runs it) is in traits-validation.ts, run on the server: ajv
 * compiles schemas to code, which the console's content security policy does not let a page run.
 */

type JsonSchema = Record<string, unknown>;

export type FieldKind = 'text' | 'email' | 'url' | 'tel' | 'date' | 'datetime' | 'password' | 'number' | 'integer' | 'boolean' | 'select' | 'list' | 'object';

export interface SchemaField {
  /** Dotted path inside traits: `name.first`. */
  path: string;
  key: string;
  label: string;
  description: string | null;
  kind: FieldKind;
  required: boolean;
  /** The options of a `select` (an enum), as strings. */
  options: string[];
  /** A text input's own limits, for the browser's hints. */
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** Signs in with this value (Ory's `credentials.*.identifier`). */
  identifier: boolean;
  /** The nested fields of an `object`. */
  fields: SchemaField[];
}

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

function kindOf(schema: JsonSchema): FieldKind {
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') as string | undefined) : (schema.type as string | undefined);
  if (Array.isArray(schema.enum)) return 'select';
  if (type === 'object') return 'object';
  if (type === 'array') return 'list';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  switch (schema.format) {
    case 'email':
      return 'email';
    case 'uri':
    case 'url':
      return 'url';
    case 'tel':
      return 'tel';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime';
    default:
      return 'text';
  }
}

function isIdentifier(schema: JsonSchema): boolean {
  const ext = schema['ory.sh/kratos'];
  if (!isObject(ext) || !isObject(ext.credentials)) return false;
  return Object.values(ext.credentials).some((c) => isObject(c) && c.identifier === true);
}

function fieldsOf(schema: JsonSchema, prefix: string): SchemaField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).flatMap(([key, raw]) => {
    if (!isObject(raw)) return [];
    const path = prefix ? `${prefix}.${key}` : key;
    const kind = kindOf(raw);
    const field: SchemaField = {
      path,
      key,
      label: typeof raw.title === 'string' && raw.title ? raw.title : key,
      description: typeof raw.description === 'string' ? raw.description : null,
      kind,
      required: required.has(key),
      options: Array.isArray(raw.enum) ? raw.enum.map(String) : [],
      identifier: isIdentifier(raw),
      fields: kind === 'object' ? fieldsOf(raw, path) : [],
    };
    for (const limit of ['minLength', 'maxLength', 'minimum', 'maximum'] as const) if (typeof raw[limit] === 'number') field[limit] = raw[limit] as number;
    return [field];
  });
}

/** The traits' schema of an identity schema (`properties.traits`), or null when it has none. */
export function traitsSchema(identitySchema: unknown): JsonSchema | null {
  if (!isObject(identitySchema) || !isObject(identitySchema.properties)) return null;
  const traits = identitySchema.properties.traits;
  return isObject(traits) ? traits : null;
}

/** The form of an identity schema's traits. */
export function schemaFields(identitySchema: unknown): SchemaField[] {
  const traits = traitsSchema(identitySchema);
  return traits ? fieldsOf(traits, '') : [];
}

/** Reads a dotted path out of traits. */
export function valueAt(traits: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), traits);
}

/** Traits with `value` at a dotted path (a copy; unknown traits are kept). Empty values remove the key. */
export function withValue(traits: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [key, ...rest] = path.split('.');
  const copy = { ...traits };
  if (rest.length === 0) {
    if (value === '' || value === undefined || (Array.isArray(value) && value.length === 0)) delete copy[key!];
    else copy[key!] = value;
    return copy;
  }
  const child = withValue(isObject(copy[key!]) ? (copy[key!] as Record<string, unknown>) : {}, rest.join('.'), value);
  if (Object.keys(child).length === 0) delete copy[key!];
  else copy[key!] = child;
  return copy;
}

/** A form's text turned into the value its field's type wants ('' stays empty; numbers that do not parse stay text, for ajv to refuse). */
export function coerce(field: Pick<SchemaField, 'kind'>, text: string): unknown {
  if (text === '') return '';
  if (field.kind === 'number' || field.kind === 'integer') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

/**
 * The fields an identity provider's refusal names (`traits.email: must match format "email"; traits.name.first:
 * is required`), keyed by dotted path; a refusal naming no trait lands on '' (the whole form).
 */
export function traitErrorsOfReason(reason: string | undefined): Record<string, string> {
  if (!reason) return {};
  const errors: Record<string, string> = {};
  for (const match of reason.matchAll(/traits((?:\.[\w-]+)*): ([^;]+)/g)) {
    const path = (match[1] ?? '').replace(/^\./, '');
    const text = match[2]!.trim();
    errors[path] ??= text.charAt(0).toUpperCase() + text.slice(1);
  }
  return Object.keys(errors).length > 0 ? errors : { '': reason };
}
