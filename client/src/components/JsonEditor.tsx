import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useId, useMemo } from 'react';

export interface JsonEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the editor (a parse failure, a server refusal). */
  error?: string | undefined;
  hint?: string | undefined;
  readOnly?: boolean;
  /** Minimum height of the editing area, e.g. '160px'. */
  minHeight?: string;
  testId?: string;
  /** Problems found elsewhere (a server's validation), marked at their 1-based line and column. */
  problems?: readonly { line: number; column: number; message: string }[] | undefined;
}

/** Diagnostics at the problems' places, clamped to the text as it is now. */
function problemDiagnostics(view: EditorView, problems: readonly { line: number; column: number; message: string }[]): Diagnostic[] {
  const doc = view.state.doc;
  return problems.map((p) => {
    const line = doc.line(Math.min(Math.max(p.line, 1), doc.lines));
    const from = Math.min(line.from + Math.max(p.column, 1) - 1, line.to);
    return { from, to: Math.max(from, line.to), severity: 'error', message: p.message };
  });
}

/**
 * A JSON editor (CodeMirror 6): highlighting, bracket matching, folding and a lint gutter that marks where
 * the text stops being JSON. Keyboard users leave it with Escape then Tab (CodeMirror's own convention).
 */
export function JsonEditor({ label, value, onChange, error, hint, readOnly, minHeight = '160px', testId, problems }: JsonEditorProps) {
  const id = useId();
  const extensions = useMemo(
    () => [
      json(),
      linter(jsonParseLinter()),
      ...(problems && problems.length > 0 ? [linter((view) => problemDiagnostics(view, problems), { delay: 0 })] : []),
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-labelledby': `${id}-label`, ...(error || (problems && problems.length > 0) ? { 'aria-invalid': 'true' } : {}) }),
    ],
    [id, error, problems],
  );
  return (
    <div className={`field${error ? ' field-invalid' : ''}`} data-testid={testId}>
      <span id={`${id}-label`} className="field-label">
        {label}
      </span>
      <CodeMirror
        className="json-editor"
        value={value}
        onChange={onChange}
        extensions={extensions}
        editable={!readOnly}
        readOnly={readOnly ?? false}
        minHeight={minHeight}
        basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: !readOnly, autocompletion: false }}
      />
      {hint && !error && <p className="field-hint">{hint}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
