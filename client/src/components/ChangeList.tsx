import type { ConfigChange } from '../../../shared/schemas/project-history';

const OP_LABEL: Record<ConfigChange['op'], string> = { add: 'Added', remove: 'Removed', replace: 'Changed' };

/** A value as one short line: JSON, cut at 160 characters. */
function shown(value: unknown): string {
  const text = value === undefined ? '—' : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/** Changes at JSON pointers, each added, removed or changed, with its value before and after (a configuration revision's, an audited write's). */
export function ChangeList({ changes, testId, itemTestId }: { changes: ConfigChange[]; testId: string; itemTestId: string }) {
  return (
    <ul className="change-list" data-testid={testId}>
      {changes.map((c) => (
        <li key={`${c.op}${c.path}`} data-testid={itemTestId} data-op={c.op}>
          <span className={`badge ${c.op === 'remove' ? 'badge-abandoned' : c.op === 'add' ? 'badge-prod' : ''}`}>{OP_LABEL[c.op]}</span> <code className="change-path">{c.path}</code>
          <div className="change-values">
            {c.op !== 'add' && (
              <span>
                <span className="sr-only">Before: </span>
                <del>{shown(c.before)}</del>
              </span>
            )}
            {c.op === 'replace' && <span aria-hidden="true"> → </span>}
            {c.op !== 'remove' && (
              <span>
                <span className="sr-only">After: </span>
                <ins>{shown(c.after)}</ins>
              </span>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
