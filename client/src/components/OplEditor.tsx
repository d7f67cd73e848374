import { javascript } from '@codemirror/lang-javascript';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useId, useMemo } from 'react';

export interface OplProblemMark {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

/** Diagnostics at the problems' places (1-based lines and columns), clamped to the text as it is now. */
function diagnostics(view: EditorView, problems: readonly OplProblemMark[]): Diagnostic[] {
  const doc = view.state.doc;
  const offset = (line: number, column: number) => {
    const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
    return Math.min(l.from + Math.max(column, 1) - 1, l.to);
  };
  return problems.map((p) => {
    const from = offset(p.line, p.column);
    const to = Math.max(from, offset(p.endLine, p.endColumn));
    return { from, to: to === from ? Math.min(from + 1, doc.length) : to, severity: 'error', message: p.message };
  });
}

/**
 * The permission rules' editor (CodeMirror 6 in TypeScript mode, which the Ory Permission Language is a subset
 * of): the problems the permission service finds are marked at their lines in the text and the gutter.
 */
export function OplEditor({
  label,
  value,
  onChange,
  problems,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  problems: readonly OplProblemMark[];
  testId?: string;
}) {
  const id = useId();
  const extensions = useMemo(
    () => [
      javascript({ typescript: true }),
      linter((view) => diagnostics(view, problems), { delay: 0 }),
      lintGutter(),
      EditorView.contentAttributes.of({ 'aria-labelledby': `${id}-label`, ...(problems.length > 0 ? { 'aria-invalid': 'true' } : {}) }),
    ],
    [id, problems],
  );
  return (
    <div className={`field${problems.length > 0 ? ' field-invalid' : ''}`} data-testid={testId}>
      <span id={`${id}-label`} className="field-label">
        {label}
      </span>
      <CodeMirror
        className="json-editor"
        value={value}
        onChange={onChange}
        extensions={extensions}
        minHeight="320px"
        basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: true, autocompletion: false }}
      />
    </div>
  );
}
