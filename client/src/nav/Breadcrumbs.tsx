import { Link } from 'wouter';
import type { Crumb } from './nav-model';
import { OverflowTooltip } from './OverflowTooltip';

export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs" data-testid="breadcrumbs">
      <ol>
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={`${item.label}-${index}`}>
              <OverflowTooltip text={item.label}>
                {item.href && !last ? (
                  <Link href={item.href} className="truncate">
                    {item.label}
                  </Link>
                ) : (
                  <span className="truncate" aria-current={last ? 'page' : undefined}>
                    {item.label}
                  </span>
                )}
              </OverflowTooltip>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
