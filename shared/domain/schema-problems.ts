import type { SchemaProblem } from '../schemas/identity-schemas';
import { parseProblemsMessage } from './identity-meta-schema';
import { MAX_SCHEMA_DEPTH } from './identity-schema-limits';
import { parseJsonWithPositions, pointerPosition, type TextPosition } from './json-position';

/*
 * An identity schema as the editor holds it (JSON text) and its problems at their line and column: syntax
 * errors found here, meta-schema problems (which the identity service names by JSON pointer) placed on the text.
 */

export type SchemaText =
  | { ok: true; schema: Record<string, unknown>; positions: Map<string, TextPosition> }
  | { ok: false; problems: SchemaProblem[] };

export function parseSchemaText(text: string): SchemaText {
  let parsed: ReturnType<typeof parseJsonWithPositions>;
  try {
    parsed = parseJsonWithPositions(text);
  } catch (err) {
    // Nesting too deep for a recursive parser: far past what an identity schema may nest anyway.
    if (err instanceof RangeError) return { ok: false, problems: [{ message: `The schema nests deeper than ${MAX_SCHEMA_DEPTH} levels; flatten it`, pointer: '', line: 1, column: 1 }] };
    throw err;
  }
  if (!parsed.ok) return { ok: false, problems: [{ message: `Not valid JSON: ${parsed.message}`, pointer: null, ...parsed.position }] };
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    return { ok: false, problems: [{ message: 'An identity schema must be a JSON object ({ … })', pointer: '', line: 1, column: 1 }] };
  }
  return { ok: true, schema: parsed.value as Record<string, unknown>, positions: parsed.positions };
}

/** The identity service's validation message (`#/pointer: what to fix` lines) placed on the text. */
export function locateProblems(message: string, positions: Map<string, TextPosition>): SchemaProblem[] {
  return placeProblems(parseProblemsMessage(message), positions);
}

/** Problems the identity service named by JSON pointer (its error's `details.problems`) placed on the text. */
export function placeProblems(problems: { pointer: string; message: string }[], positions: Map<string, TextPosition>): SchemaProblem[] {
  return problems.map((p) => ({
    message: p.pointer ? `${p.pointer.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~')).join('.')} ${p.message}` : p.message,
    pointer: p.pointer,
    ...pointerPosition(positions, p.pointer),
  }));
}

/** "Line 4, column 7: properties.traits.type must be "object"" — one sentence per problem, for an error message. */
export const describeProblems = (problems: SchemaProblem[]): string =>
  problems.map((p) => `Line ${p.line}, column ${p.column}: ${p.message}`).join('; ');
