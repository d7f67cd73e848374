import { describe, expect, it } from 'vitest';
import { parseJsonWithPositions, pointerPosition, positionAt } from './json-position';

describe('parseJsonWithPositions', () => {
  it('parses what JSON.parse parses and remembers where each value starts', () => {
    const text = '{\n  "properties": {\n    "traits": {\n      "type": "object"\n    }\n  },\n  "list": [1, {"a/b": true}]\n}';
    const parsed = parseJsonWithPositions(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value).toEqual(JSON.parse(text));
    expect(parsed.positions.get('')).toEqual({ line: 1, column: 1 });
    expect(parsed.positions.get('/properties/traits/type')).toEqual({ line: 4, column: 7 });
    expect(parsed.positions.get('/list/1/a~1b')).toEqual({ line: 7, column: 16 });
  });

  it('says where a syntax error is, and what to fix', () => {
    const trailing = parseJsonWithPositions('{\n  "a": 1,\n}');
    expect(trailing).toEqual({ ok: false, message: 'a comma cannot come before "}"; remove it', position: { line: 3, column: 1 } });
    const unquoted = parseJsonWithPositions('{\n  "a": 1,\n  b: 2\n}');
    expect(unquoted.ok === false && unquoted.position).toEqual({ line: 3, column: 3 });
    expect(unquoted.ok === false && unquoted.message).toMatch(/expected a property name in double quotes/);
    const open = parseJsonWithPositions('{"a": "never closed}');
    expect(open.ok === false && open.position).toEqual({ line: 1, column: 7 });
    expect(parseJsonWithPositions('').ok).toBe(false);
    expect(parseJsonWithPositions('{} x').ok).toBe(false);
    expect(parseJsonWithPositions('[1,]').ok).toBe(false);
  });

  it('agrees with JSON.parse on escapes and numbers', () => {
    for (const text of ['"a\\u00e9\\n"', '-0.5e10', 'null', '[true,false]', '{"":{}}']) {
      const parsed = parseJsonWithPositions(text);
      expect(parsed.ok && parsed.value).toEqual(JSON.parse(text));
    }
    expect(parseJsonWithPositions('01').ok).toBe(false);
    expect(parseJsonWithPositions('"\\x"').ok).toBe(false);
  });
});

describe('pointerPosition', () => {
  it('falls back to the closest parent in the text', () => {
    const parsed = parseJsonWithPositions('{\n  "properties": {}\n}');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(pointerPosition(parsed.positions, '/properties/traits')).toEqual({ line: 2, column: 3 });
    expect(pointerPosition(parsed.positions, '/nothing/here')).toEqual({ line: 1, column: 1 });
  });

  it('counts lines and columns from 1', () => {
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('large texts', () => {
  it('places the values of a 3,500-field schema in time linear in its text', () => {
    const fields = Object.fromEntries(Array.from({ length: 3500 }, (_, i) => [`field_${i}`, { type: 'string', title: `Field ${i}`, maxLength: 100 }]));
    const text = JSON.stringify({ type: 'object', properties: { traits: { type: 'object', properties: fields } } }, null, 1);
    const start = performance.now();
    const parsed = parseJsonWithPositions(text);
    const took = performance.now() - start;
    if (!parsed.ok) throw new Error(parsed.message);
    for (const pointer of ['/properties/traits/properties/field_0/title', '/properties/traits/properties/field_3499/maxLength']) {
      const position = parsed.positions.get(pointer)!;
      const lines = text.split('\n');
      expect(lines[position.line - 1]!.slice(position.column - 1)).toMatch(/^"(title|maxLength)"/);
    }
    // Placing each value by counting lines from the start took 6 to 14 s here.
    expect(took).toBeLessThan(2000);
  });
});
