/*
 * JSON text with positions: where in the text (1-based line and column) a syntax error is, and where the
 * value a JSON pointer names starts (an object member at its key), so that a problem found in the parsed
 * value can be shown at its line of the editor.
 */

export interface TextPosition {
  line: number;
  column: number;
}

export type ParsedJson =
  | { ok: true; value: unknown; positions: Map<string, TextPosition> }
  | { ok: false; message: string; position: TextPosition };

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The line and column of a character offset. */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: Math.min(offset, text.length) - lineStart + 1 };
}

const escapeSegment = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Parses JSON text (RFC 8259, as JSON.parse does), remembering where each value starts. */
export function parseJsonWithPositions(text: string): ParsedJson {
  const positions = new Map<string, number>();
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, i);
  };
  const describe = () => (i >= text.length ? 'the text ends too early' : `unexpected ${JSON.stringify(text[i])}`);

  function string(): string {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('a string cannot contain a line break or control character; close the string or escape it');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('\\u must be followed by four hexadecimal digits');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail(`\\${text[i] ?? ''} is not an escape JSON knows`);
      }
      i++;
    }
    if (i >= text.length) {
      i = start;
      fail('this string is never closed; add the closing "');
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  }

  function value(pointer: string): unknown {
    ws();
    positions.set(pointer, positions.get(pointer) ?? i);
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`${describe()}: expected a property name in double quotes`);
        const keyAt = i;
        const key = string();
        const child = `${pointer}/${escapeSegment(key)}`;
        positions.set(child, keyAt);
        ws();
        if (text[i] !== ':') fail(`${describe()}: expected ":" after the property name`);
        i++;
        out[key] = value(child);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') fail('a comma cannot come before "}"; remove it');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return out;
        }
        fail(`${describe()}: expected "," or "}"`);
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value(`${pointer}/${out.length}`));
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') fail('a comma cannot come before "]"; remove it');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return out;
        }
        fail(`${describe()}: expected "," or "]"`);
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) fail(`${describe()}: expected a value (an object, array, string, number, true, false or null)`);
    i += literal![0].length;
    return JSON.parse(literal![0]) as unknown;
  }

  try {
    const parsed = value('');
    ws();
    if (i < text.length) fail(`${describe()}: the JSON value has already ended`);
    // Lines found once, each offset placed by binary search: linear in the text, not in text × values.
    const lineStarts = [0];
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
    const place = (offset: number): TextPosition => {
      let lo = 0;
      let hi = lineStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (lineStarts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo + 1, column: offset - lineStarts[lo]! + 1 };
    };
    const out = new Map<string, TextPosition>();
    for (const [pointer, offset] of positions) out.set(pointer, place(offset));
    return { ok: true, value: parsed, positions: out };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    return { ok: false, message: err.message, position: positionAt(text, err.offset) };
  }
}

/** Where the value at `pointer` starts, else its closest parent that exists in the text (line 1, column 1 at worst). */
export function pointerPosition(positions: Map<string, TextPosition>, pointer: string): TextPosition {
  let at = pointer;
  for (;;) {
    const found = positions.get(at);
    if (found) return found;
    if (at === '') return { line: 1, column: 1 };
    at = at.slice(0, at.lastIndexOf('/'));
  }
}
