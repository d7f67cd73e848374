import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
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
}

/**
 * A JSON editor (CodeMirror 6): highlighting, bracket matching, folding and a lint gutter that marks where
 * the text stops being JSON. Keyboard users leave it with Escape then Tab (CodeMirror's own convention).
 */
export function JsonEditor({ label, value, onChange, error, hint, readOnly, minHeight = '160px', testId }: JsonEditorProps) {
  const id = useId();
  const extensions = useMemo(
    () => [json(), linter(jsonParseLinter()), lintGutter(), EditorView.lineWrapping, EditorView.contentAttributes.of({ 'aria-labelledby': `${id}-label`, ...(error ? { 'aria-invalid': 'true' } : {}) })],
    [id, error],
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
