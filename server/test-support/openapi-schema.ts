/**
 * OpenAPI 3.0 schemas as JSON Schema for ajv: `nullable` becomes a `null` type (or enum value),
 * `discriminator` becomes a required tag that selects its mapped variant, `$ref`s to
 * `#/components/schemas/X` point at the `definitions` of the document with the given `$id`.
 */
type Json = unknown;
type Schema = Record<string, Json>;

const isObject = (v: Json): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

export function refTo(docId: string, ref: string): string {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`Unsupported $ref ${ref} (only ${prefix}… is used by Ory's spec)`);
  return `${docId}#/definitions/${ref.slice(prefix.length)}`;
}

/** The subschema keys whose values are maps of schemas, and those holding schema lists or a schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_ONE = new Set(['items', 'additionalProperties', 'not']);

export function toJsonSchema(schema: Json, docId: string): Json {
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === 'string') return { $ref: refTo(docId, schema.$ref) }; // OpenAPI 3.0 ignores siblings of $ref
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'discriminator') continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v, docId)]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => toJsonSchema(v, docId));
    } else if (SCHEMA_ONE.has(key)) {
      out[key] = toJsonSchema(value, docId);
    } else {
      out[key] = value; // keywords (type, format, enum, required, …) and annotations (example, x-…)
    }
  }
  const withTag = isObject(schema.discriminator) ? discriminated(out, schema.discriminator, docId) : out;
  return schema.nullable === true ? nullable(withTag) : withTag;
}

/**
 * A discriminator names the property that tells the variants apart: the tag must be one of the mapping's
 * keys and the object must match the variant mapped to its tag (instead of a bare oneOf, whose errors
 * would name every variant).
 */
function discriminated(schema: Schema, discriminator: Schema, docId: string): Schema {
  const property = discriminator.propertyName;
  const mapping = discriminator.mapping;
  if (typeof property !== 'string' || !isObject(mapping)) return schema;
  const { oneOf: _variants, ...rest } = schema;
  const tags = Object.keys(mapping);
  return {
    ...rest,
    type: 'object',
    required: [...(Array.isArray(rest.required) ? rest.required : []), property],
    properties: { ...(isObject(rest.properties) ? rest.properties : {}), [property]: { type: 'string', enum: tags } },
    allOf: tags.map((tag) => ({
      if: { properties: { [property]: { const: tag } } },
      then: { $ref: refTo(docId, String(mapping[tag])) },
    })),
  };
}

function nullable(schema: Schema): Schema {
  if (typeof schema.type === 'string') {
    const out: Schema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
  const keys = Object.keys(schema).filter((k) => !['description', 'title', 'example', 'default'].includes(k));
  if (keys.length === 0) return schema; // no constraint at all: null is already accepted
  return { anyOf: [schema, { type: 'null' }] };
}
