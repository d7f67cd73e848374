import { describe, expect, it } from 'vitest';
import { compiledSchemaCount, compileIdentitySchema, MAX_COMPILED_SCHEMAS } from './identity-schema-compiler';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, schemaLimitProblems } from './identity-schema-limits';
import { identitySchemaProblems } from './identity-meta-schema';
import { validateTraits } from './traits-validation';

const withTraits = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { traits: { type: 'object', properties, ...extra } },
});

const elapsed = (f: () => unknown) => {
  const start = performance.now();
  f();
  return performance.now() - start;
};

describe('patterns run on RE2, in linear time', () => {
  it('answers a catastrophic pattern at once instead of backtracking for seconds', () => {
    const schema = withTraits({ code: { type: 'string', pattern: '^(a+)+$' } });
    expect(identitySchemaProblems(schema)).toEqual([]);
    let errors: Record<string, string> = {};
    // 30 characters cost a backtracking engine about 2^30 steps (seconds to minutes); RE2 a few microseconds.
    const took = elapsed(() => (errors = validateTraits(schema, { code: `${'a'.repeat(30)}!` })));
    expect(errors).toEqual({ code: 'Does not have the expected form' });
    expect(validateTraits(schema, { code: 'aaaa' })).toEqual({});
    expect(took).toBeLessThan(2000);
  });

  it('takes RE2 syntax (inline flags) and refuses what RE2 cannot run, naming the pointer', () => {
    const caseless = withTraits({ code: { type: 'string', pattern: '(?i)^abc$' } });
    expect(identitySchemaProblems(caseless)).toEqual([]);
    expect(validateTraits(caseless, { code: 'ABC' })).toEqual({});

    const lookahead = withTraits({ code: { type: 'string', pattern: '^(?=.*[0-9]).+$' } });
    expect(identitySchemaProblems(lookahead)).toEqual([
      { pointer: '/properties/traits/properties/code/pattern', message: expect.stringContaining('is not a regular expression the identity service accepts') },
    ]);
    const backref = withTraits({}, { patternProperties: { '^(a)\\1/x$': { type: 'string' } } });
    expect(identitySchemaProblems(backref)).toEqual([
      { pointer: '/properties/traits/patternProperties/^(a)\\1~1x$', message: expect.stringContaining('invalid escape sequence') },
    ]);
  });
});

describe('schema limits (checked before anything compiles a schema)', () => {
  it('refuses a schema larger than 1 MiB', () => {
    const big = withTraits({ note: { type: 'string', description: 'x'.repeat(1 << 20) } });
    expect(schemaLimitProblems(big)).toEqual([{ pointer: '', message: expect.stringMatching(/at most 1048576 bytes \(1 MiB\)/) }]);
  });

  it('refuses a schema nested deeper than the limit, naming where', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1000; i++) deep = { type: 'object', properties: { a: deep } };
    const problems = identitySchemaProblems(withTraits({ a: deep }));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toBe(`nests deeper than ${MAX_SCHEMA_DEPTH} levels; flatten the schema`);
    expect(problems[0]!.pointer).toMatch(/^\/properties\/traits\/properties\/a\/properties\/a\//);
  });

  it('refuses a $ref cycle that names no schema and keeps a recursive schema that consumes input', () => {
    const cycle = { ...withTraits({ a: { $ref: '#/definitions/x' } }), definitions: { x: { $ref: '#/definitions/y' }, y: { $ref: '#/definitions/x' } } };
    expect(identitySchemaProblems(cycle)).toEqual([{ pointer: expect.stringMatching(/^\/(definitions|properties)\//), message: expect.stringMatching(/is a \$ref cycle \(#\/.* → .*\)/) }]);
    const tree = {
      ...withTraits({ org: { $ref: '#/definitions/unit' } }),
      definitions: { unit: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/unit' } } } } },
    };
    expect(identitySchemaProblems(tree)).toEqual([]);
    expect(validateTraits(tree, { org: { name: 'a', children: [{ name: 'b', children: [{ name: 5 }] }] } })).toEqual({ 'org.children.0.children.0.name': 'Must be a string' });
  });

  it('refuses $refs that expand past the limit (a chain of anyOf doubling at each step) at once', () => {
    const definitions: Record<string, unknown> = { d40: { type: 'string' } };
    for (let i = 0; i < 40; i++) definitions[`d${i}`] = { anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
    const chain = { ...withTraits({ x: { $ref: '#/definitions/d0' } }), definitions };
    let problems: unknown[] = [];
    const took = elapsed(() => (problems = identitySchemaProblems(chain)));
    expect(problems).toEqual([{ pointer: '', message: expect.stringContaining(`more than ${MAX_SCHEMA_NODES} subschemas once its $refs are expanded`) }]);
    expect(took).toBeLessThan(2000);
  });

  it('refuses a schema of 3,500 fields before compiling it', () => {
    const fields = Object.fromEntries(Array.from({ length: 3500 }, (_, i) => [`field_${i}`, { type: 'string', title: `Field ${i}`, maxLength: 100 }]));
    expect(identitySchemaProblems(withTraits(fields))).toEqual([{ pointer: '', message: expect.stringContaining(`more than ${MAX_SCHEMA_NODES} subschemas`) }]);
  });
});

describe('compiled schemas', () => {
  it('keeps at most its bound, however many distinct schemas pass through', () => {
    for (let i = 0; i < MAX_COMPILED_SCHEMAS + 20; i++) {
      expect(compileIdentitySchema(withTraits({ [`trait_${i}`]: { type: 'string' } })).ok).toBe(true);
      expect(compiledSchemaCount()).toBeLessThanOrEqual(MAX_COMPILED_SCHEMAS);
    }
    expect(compiledSchemaCount()).toBe(MAX_COMPILED_SCHEMAS);
  });

  it('compiles a schema once per content and gives each its own $id', () => {
    const a = { $id: 'https://example.com/same.json', ...withTraits({ a: { type: 'string' } }) };
    const b = { $id: 'https://example.com/same.json', ...withTraits({ b: { type: 'integer' } }) };
    const first = compileIdentitySchema(a);
    expect(compileIdentitySchema(structuredClone(a))).toBe(first);
    expect(validateTraits(b, { b: 'x' })).toEqual({ b: 'Must be a whole number' });
    expect(validateTraits(a, { a: 'x' })).toEqual({});
  });
});
