import { useEffect, useSyncExternalStore } from 'react';
import toast, { ToastBar, Toaster, useToasterStore } from 'react-hot-toast';
import { toastOptions } from '../../../shared/domain/toasts';
import { hasDismissButton, toastsToDismiss } from './toast-rules';

/** Keeps at most 20 toasts on screen (spec §2): the oldest go first. */
function useToastLimit(): void {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toastsToDismiss(toasts).forEach((id) => toast.dismiss(id));
  }, [toasts]);
}

const base = toastOptions('default');

/**
 * Where a 300 px toast would sit over the page's own buttons (a phone, where it spans nearly the whole
 * width at the bottom, over a form's Save), toasts show at the top instead.
 */
const NARROW_QUERY = '(max-width: 640px)';

function subscribeNarrow(listener: () => void): () => void {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => window.matchMedia(NARROW_QUERY).matches,
    () => false,
  );
}

/**
 * Spec §2: bottom right (top centre on a phone, clear of the page's actions), 300px wide, 4 s / success 2 s /
 * error 4 s / loading endless, dismissable except loading.
 */
export function ConsoleToaster() {
  useToastLimit();
  const narrow = useNarrow();
  return (
    <Toaster
      position={narrow ? 'top-center' : base.position}
      toastOptions={{
        duration: base.durationMs,
        success: { duration: toastOptions('success').durationMs },
        // Errors are announced at once by screen readers.
        error: { duration: toastOptions('error').durationMs, ariaProps: { role: 'alert', 'aria-live': 'assertive' } },
        loading: { duration: toastOptions('loading').durationMs },
        style: { width: base.widthPx, maxWidth: base.widthPx },
        className: 'toast',
      }}
    >
      {(t) => (
        <ToastBar toast={t}>
          {({ icon, message }) => (
            <div className="toast-body" data-testid="toast">
              {icon}
              <div className="toast-message" data-testid={`toast-${t.type}`}>
                {message}
              </div>
              {hasDismissButton(t.type) && (
                <button type="button" className="toast-dismiss" aria-label="Dismiss" onClick={() => toast.dismiss(t.id)} data-testid="toast-dismiss">
                  <span aria-hidden="true">×</span>
                </button>
              )}
            </div>
          )}
        </ToastBar>
      )}
    </Toaster>
  );
}
