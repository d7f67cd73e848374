import { Link, useLocation } from 'wouter';

export interface NavItem {
  label: string;
  href: string;
  testId?: string;
}

/** A vertical or horizontal list of links; the current page is marked for assistive technology. */
export function Nav({ items, label, orientation = 'vertical' }: { items: readonly NavItem[]; label: string; orientation?: 'vertical' | 'horizontal' }) {
  const [location] = useLocation();
  return (
    <nav aria-label={label} className={`nav nav-${orientation}`}>
      <ul>
        {items.map((item) => {
          const current = location === item.href;
          return (
            <li key={item.href}>
              <Link href={item.href} className={current ? 'nav-link nav-link-current' : 'nav-link'} aria-current={current ? 'page' : undefined} data-testid={item.testId}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
