import { describe, expect, it } from 'vitest';
import { describeProblems, locateProblems, parseSchemaText } from './schema-problems';

describe('parseSchemaText', () => {
  it('answers a syntax error at its line', () => {
    expect(parseSchemaText('{\n  "a": 1,\n}')).toEqual({
      ok: false,
      problems: [{ message: 'Not valid JSON: a comma cannot come before "}"; remove it', pointer: null, line: 3, column: 1 }],
    });
    expect(parseSchemaText('[]')).toMatchObject({ ok: false, problems: [{ pointer: '', line: 1, column: 1 }] });
  });

  it('answers text nested too deep for any parser to follow with a problem, not a crash', () => {
    const text = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(parseSchemaText(text)).toEqual({ ok: false, problems: [{ message: 'The schema nests deeper than 64 levels; flatten it', pointer: '', line: 1, column: 1 }] });
  });
});

describe('locateProblems', () => {
  it('places each problem of the message at its pointer', () => {
    const text = '{\n  "properties": {\n    "traits": {\n      "type": "array"\n    }\n  }\n}';
    const parsed = parseSchemaText(text);
    if (!parsed.ok) throw new Error('parses');
    const problems = locateProblems('#/properties/traits/type: must be "object"\n#/properties/traits: must have the property "properties"', parsed.positions);
    expect(problems).toEqual([
      { message: 'properties.traits.type must be "object"', pointer: '/properties/traits/type', line: 4, column: 7 },
      { message: 'properties.traits must have the property "properties"', pointer: '/properties/traits', line: 3, column: 5 },
    ]);
    expect(describeProblems(problems)).toBe(
      'Line 4, column 7: properties.traits.type must be "object"; Line 3, column 5: properties.traits must have the property "properties"',
    );
  });
});
