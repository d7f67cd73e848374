import { MESSAGES } from '../../../shared/messages';
import { useGrace } from '../lib/use-grace';

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <span className="spinner-wrap" role="status" data-testid="spinner">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A spinner that shows only after the 300 ms grace period, so quick loads never flash. */
export function GraceSpinner({ label }: { label?: string }) {
  const visible = useGrace(true);
  return visible ? (
    <div className="loading-block">
      <Spinner {...(label ? { label } : {})} />
    </div>
  ) : null;
}

/**
 * Spec §2: the full-screen 'Loading Project' screen of the project context wrapper. Like every
 * loading indicator it appears only after the grace period; until then the screen stays blank.
 */
export function LoadingProjectScreen() {
  const visible = useGrace(true);
  return (
    <div className="fullscreen" role="status" aria-live="polite" data-testid="loading-project" data-visible={visible}>
      {visible && (
        <>
          <p className="fullscreen-text">{MESSAGES.loadingProject}</p>
          <span className="spinner" aria-hidden="true" />
        </>
      )}
    </div>
  );
}
