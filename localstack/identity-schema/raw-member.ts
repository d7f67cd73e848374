/*
 * The text of one member of a JSON object body exactly as it was sent (what Go's json.RawMessage keeps, and
 * Ory keeps of a schema's `data`): the body has already been parsed, so the text is valid JSON and only
 * strings and nesting need following here.
 */

/** Where the string starting at `start` (its opening quote) ends: the offset after its closing quote. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Where the value starting at `start` ends (the offset after it). */
function valueEnd(text: string, start: number): number {
  if (text[start] === '"') return stringEnd(text, start);
  if (text[start] !== '{' && text[start] !== '[') {
    let i = start;
    while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The text of member `key` of the JSON object `text` (the last one, as JSON.parse keeps), or undefined. */
export function rawMember(text: string, key: string): string | undefined {
  let i = 0;
  const skip = () => {
    while (isSpace(text[i])) i++;
  };
  skip();
  if (text[i] !== '{') return undefined;
  i++;
  let found: string | undefined;
  for (;;) {
    skip();
    if (text[i] !== '"') return found;
    const keyEnd = stringEnd(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    i = keyEnd;
    skip();
    i++; // ':'
    skip();
    const end = valueEnd(text, i);
    if (name === key) found = text.slice(i, end);
    i = end;
    skip();
    if (text[i] !== ',') return found;
    i++;
  }
}
