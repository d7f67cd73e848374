import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { confirmsName } from '../../../shared/domain/typed-confirmation';
import { Button } from './Button';
import { TextField } from './TextField';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** The id of the element that describes the dialog (read out after its title). */
  describedBy?: string;
  testId?: string;
}

/** A modal dialog: focus moves in and is trapped, Escape closes, focus returns to the opener. */
export function Dialog({ open, title, onClose, children, footer, describedBy, testId }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    return () => opener?.focus();
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={panel}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        {footer && <div className="dialog-footer">{footer}</div>}
      </div>
    </div>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  /** When set, the user must type this text before confirming. */
  confirmText?: string;
  confirmLabel: string;
  busy?: boolean;
  error?: string | undefined;
  onConfirm: (typed: string) => void;
  onClose: () => void;
  testId?: string;
}

export function ConfirmDialog({ open, title, message, confirmText, confirmLabel, busy, error, onConfirm, onClose, testId = 'confirm-dialog' }: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const messageId = useId();
  useEffect(() => {
    if (open) setTyped('');
  }, [open]);
  const matches = confirmText === undefined || confirmsName(typed, confirmText);
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      testId={testId}
      describedBy={messageId}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={!matches} busy={busy ?? false} onClick={() => onConfirm(typed)} data-testid="confirm-button">
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (matches) onConfirm(typed);
        }}
      >
        <div id={messageId} className="dialog-message">
          {message}
        </div>
        {confirmText !== undefined && (
          <TextField
            label={`Type "${confirmText}" to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            data-testid="confirm-input"
            error={error}
          />
        )}
        {confirmText === undefined && error && <p className="field-error">{error}</p>}
      </form>
    </Dialog>
  );
}
