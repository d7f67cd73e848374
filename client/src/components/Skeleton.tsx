import { useGrace } from '../lib/use-grace';

export type SkeletonShape = 'table' | 'details' | 'card' | 'form';

const ROWS: Record<SkeletonShape, number> = { table: 4, details: 4, card: 3, form: 2 };

/**
 * Grey placeholders in the shape of what is loading. Like every loading indicator (spec §2), it shows
 * only after the 300 ms grace period; until then the same box stays in the page unseen, so the
 * skeleton's arrival moves nothing below it.
 */
export function Skeleton({ shape = 'card', label = 'Loading' }: { shape?: SkeletonShape; label?: string }) {
  const visible = useGrace(true);
  if (!visible) {
    return (
      <div className={`skeleton skeleton-${shape} skeleton-wait`} aria-busy="true">
        {Array.from({ length: ROWS[shape] }, (_, i) => (
          <div key={i} className="skeleton-row" aria-hidden="true">
            <span className="skeleton-bar" />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className={`skeleton skeleton-${shape}`} role="status" aria-busy="true" data-testid="skeleton">
      <span className="sr-only">{label}</span>
      {Array.from({ length: ROWS[shape] }, (_, i) => (
        <div key={i} className="skeleton-row" aria-hidden="true">
          <span className="skeleton-bar" />
          {shape === 'table' && <span className="skeleton-bar skeleton-bar-short" />}
        </div>
      ))}
    </div>
  );
}
