import { CircleHelp } from 'lucide-react';
import { useLocation } from 'wouter';
import { ROUTES } from '../routes';
import { requestOpen, useOverlays } from './use-overlays';

const TEST_ID = 'help-menu';

/** Help: the console's support page and the spec's external links (docs, status, terms, …). */
export function HelpMenu() {
  const [, navigate] = useLocation();
  const overlays = useOverlays();
  const trigger = (
    <button type="button" className="topbar-button" aria-haspopup="menu" aria-label="Help" onClick={overlays ? undefined : () => requestOpen(TEST_ID)} data-testid={TEST_ID}>
      <CircleHelp aria-hidden="true" size={18} />
    </button>
  );
  if (!overlays) return trigger;
  return <overlays.HelpMenuDropdown trigger={trigger} testId={TEST_ID} onSupport={() => navigate(ROUTES.support.build({}))} />;
}
