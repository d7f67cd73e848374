/**
 * What the console shows of a project's rules: each namespace with its relations (what they may point at) and
 * permissions (their rule), and the problems of the text at editor positions.
 */
import { ruleText } from './engine';
import type { Namespace } from './model';
import type { SourcePosition } from './opl';

export interface RelationOverview {
  name: string;
  kind: 'relation' | 'permission';
  types: string[];
  rule?: string;
}

export function overviewOf(namespaces: readonly Namespace[]): { name: string; relations: RelationOverview[] }[] {
  return namespaces.map((n) => ({
    name: n.name,
    relations: n.relations.map((r) =>
      r.rewrite
        ? { name: r.name, kind: 'permission' as const, types: [], rule: ruleText(r.rewrite) }
        : { name: r.name, kind: 'relation' as const, types: r.types.map((t) => (t.relation !== undefined ? `${t.namespace}#${t.relation}` : t.namespace)) },
    ),
  }));
}

/**
 * A position the permission service answered (its column counts from 0, and a token at the start of a line is
 * placed after the end of the line before) as an editor's line and column, both from 1.
 */
export function editorPosition(text: string, position: Partial<SourcePosition>): { line: number; column: number } {
  const lines = text.split('\n');
  const at = { Line: position.Line ?? 1, column: position.column ?? 0 };
  const line = lines[at.Line - 1] ?? '';
  if (at.column > line.length && at.Line < lines.length) return { line: at.Line + 1, column: 1 };
  return { line: at.Line, column: Math.max(1, at.column + 1) };
}

type Position = Partial<SourcePosition> | undefined;

export function editorProblem(text: string, problem: { message?: string | undefined; start?: Position; end?: Position }) {
  const start = editorPosition(text, problem.start ?? { Line: 1, column: 0 });
  const end = editorPosition(text, problem.end ?? problem.start ?? { Line: 1, column: 0 });
  return { message: problem.message ?? 'The rules cannot be read here.', line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
}
