import { lazy, Suspense, useState } from 'react';
import { usePendingNavigation } from '../lib/navigation-guard';

const NavigationGuardConfirm = lazy(() => import('./NavigationGuardConfirm'));

/**
 * Asks before a navigation leaves a form with unsaved changes. Mounted once, beside the router; the dialog's
 * code (Radix) loads the first time it is needed, not with the initial JS.
 */
export function NavigationGuardDialog() {
  const pending = usePendingNavigation();
  const [needed, setNeeded] = useState(false);
  if (pending !== null && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NavigationGuardConfirm pending={pending} />
    </Suspense>
  );
}
