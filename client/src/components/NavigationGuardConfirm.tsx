import { cancelNavigation, confirmNavigation, type PendingNavigation } from '../lib/navigation-guard';
import { ConfirmDialog } from './Dialog';

/** The question NavigationGuardDialog asks, loaded the first time a navigation would drop unsaved changes. */
export default function NavigationGuardConfirm({ pending }: { pending: PendingNavigation | null }) {
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
