import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { z } from 'zod';
import { findMalformedText } from '../../shared/text-input';

/** Valid values for id keys (the caller's own objects), so a bad field is judged, not the access check. */
export type Hints = Record<string, unknown>;

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  values?: unknown[];
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** What the BFF must refuse: what the schema refuses, and text the store cannot keep (NUL, lone surrogates). */
export function refuses(schema: z.ZodType | undefined, value: unknown): boolean {
  if (findMalformedText(value) !== null) return true;
  return schema !== undefined && !schema.safeParse(value).success;
}

/** A value the schema accepts: hints for id keys, the first option of enums, one element for arrays. */
export function validSample(schema: z.ZodType, hints: Hints, key?: string): unknown {
  const def = defOf(schema);
  if (key !== undefined && key in hints) return hints[key];
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, s]) => [k, validSample(s, hints, k)]));
    case 'optional':
    case 'default':
    case 'nullable':
      return validSample(def.innerType!, hints, key);
    case 'pipe':
      return validSample(def.in!, hints, key);
    case 'string':
      return def.format === 'uuid' ? randomUUID() : 'Valid text';
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'array':
      return [validSample(def.element!, hints)];
    case 'number':
      return 10;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

const HUGE = 'x'.repeat(100_000);

/** Values of the wrong type, shape or size, whatever the field: the filter keeps those the schema refuses. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, 0, -1, 1.5, true, false, '', ' ', [], {}, HUGE, 'a\u0000b', 'a\ud800b', '../../etc', 'NaN'),
  fc.constantFrom('00000000-0000-0000-0000-00000000000g', '{00000000-0000-4000-8000-000000000000}', 'backoffice.project.read'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 256, maxLength: 700 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 40 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

/** Inputs that violate `schema` (or carry unstorable text): wrong types, missing keys, bad fields, extra keys. */
export function badInputs(schema: z.ZodType | undefined, hints: Hints): fc.Arbitrary<unknown> {
  const whole = wrongValue;
  if (!schema) return whole.filter((value) => value !== undefined);
  const outer = defOf(schema);
  const def = outer.type === 'optional' ? defOf(outer.innerType!) : outer;
  const base = validSample(schema, hints) as Record<string, unknown> | undefined;
  const keys = def.type === 'object' ? Object.keys(def.shape ?? {}) : [];
  if (keys.length === 0 || !base || typeof base !== 'object') return whole.filter((value) => refuses(schema, value));
  const key = fc.constantFrom(...keys);
  const withBadField = fc.tuple(key, wrongValue).map(([k, value]) => ({ ...base, [k]: value }));
  const withoutField = key.map((k) => Object.fromEntries(Object.entries(base).filter(([name]) => name !== k)));
  const withExtraAndBad = fc
    .tuple(key, wrongValue, fc.string({ maxLength: 12 }), wrongValue)
    .map(([k, value, extra, extraValue]) => ({ ...base, [extra]: extraValue, [k]: value }));
  return fc.oneof(whole, withBadField, withoutField, withExtraAndBad).filter((value) => refuses(schema, value));
}
