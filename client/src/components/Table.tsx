import { useState, type ReactNode } from 'react';
import { useOverflow } from '../lib/use-overflow';
import { Truncate } from './Truncate';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** 'col-name' and 'col-code' cap the column's width so long values are cut instead of widening the table. */
  className?: string;
}

/** Plain text is cut to the column with its whole value in a tooltip; elements keep their own layout. */
function cell(content: ReactNode): ReactNode {
  return typeof content === 'string' || typeof content === 'number' ? <Truncate text={String(content)} /> : content;
}

export function Table<T>({ columns, rows, rowKey, caption, testId }: { columns: readonly Column<T>[]; rows: readonly T[]; rowKey: (row: T) => string; caption?: string; testId?: string }) {
  const [wrap, setWrap] = useState<HTMLDivElement | null>(null);
  // A table that scrolls sideways can be reached and scrolled from the keyboard (WCAG 2.1.1): it is then in
  // the tab order, a region named by its caption when it has one. One that fits adds no tab stop.
  const scrolls = useOverflow(wrap).x;
  const reachable = scrolls ? { tabIndex: 0, ...(caption ? { role: 'region', 'aria-label': caption } : {}) } : {};
  return (
    <div ref={setWrap} className="table-wrap" {...reachable}>
      <table className="table" data-testid={testId}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} className={c.className} data-label={c.header}>
                  {cell(c.render(row))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
