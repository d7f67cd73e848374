import { cancelNavigation, confirmNavigation, usePendingNavigation } from '../lib/navigation-guard';
import { ConfirmDialog } from './Dialog';

/** Asks before a navigation leaves a form with unsaved changes. Mounted once, beside the router. */
export function NavigationGuardDialog() {
  const pending = usePendingNavigation();
  return (
    <ConfirmDialog
      open={pending !== null}
      title="Leave without saving?"
      message={<p>{pending?.message}</p>}
      cancelLabel="Stay on this page"
      confirmLabel="Leave and discard"
      onConfirm={confirmNavigation}
      onClose={cancelNavigation}
      testId="unsaved-changes-dialog"
    />
  );
}
