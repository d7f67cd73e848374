import { useEffect } from 'react';
import toast, { ToastBar, Toaster, useToasterStore } from 'react-hot-toast';
import { toastOptions, visibleToasts } from '../../../shared/domain/toasts';

/** Keeps at most 20 toasts on screen (spec §2): the oldest go first. */
function useToastLimit(): void {
  const { toasts } = useToasterStore();
  useEffect(() => {
    // react-hot-toast lists the newest first; visibleToasts expects oldest first.
    const shown = toasts.filter((t) => t.visible).reverse();
    const keep = new Set(visibleToasts(shown).map((t) => t.id));
    shown.filter((t) => !keep.has(t.id)).forEach((t) => toast.dismiss(t.id));
  }, [toasts]);
}

const base = toastOptions('default');

/** Spec §2: bottom right, 300px wide, 4 s / success 2 s / error 4 s / loading endless, dismissable except loading. */
export function ConsoleToaster() {
  useToastLimit();
  return (
    <Toaster
      position={base.position}
      toastOptions={{
        duration: base.durationMs,
        success: { duration: toastOptions('success').durationMs },
        error: { duration: toastOptions('error').durationMs },
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
              {toastOptions(t.type === 'blank' || t.type === 'custom' ? 'default' : t.type).dismissible && (
                <button type="button" className="toast-dismiss" aria-label="Dismiss" onClick={() => toast.dismiss(t.id)}>
                  ×
                </button>
              )}
            </div>
          )}
        </ToastBar>
      )}
    </Toaster>
  );
}
