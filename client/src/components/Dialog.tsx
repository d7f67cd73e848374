import { Dialog as Radix } from 'radix-ui';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { confirmsName } from '../../../shared/domain/typed-confirmation';
import { Button } from './Button';
import { TextField } from './TextField';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children?: ReactNode;
  /** Read out after the title (the dialog's accessible description). */
  description?: ReactNode;
  footer?: ReactNode;
  /** 'alertdialog' for questions that interrupt the user (leave without saving?). */
  role?: 'dialog' | 'alertdialog';
  testId?: string;
  /** 'drawer' slides the dialog in from the side, full height (details beside a list). */
  variant?: 'centered' | 'drawer';
}

/**
 * A modal dialog (Radix): focus moves in and stays inside, Escape or the backdrop closes, focus returns
 * to what had it before.
 */
export function Dialog({ open, title, onClose, children, description, footer, role = 'dialog', testId, variant = 'centered' }: DialogProps) {
  // Radix gives focus back to a Dialog.Trigger; these dialogs are opened from anywhere, so remember the opener.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Radix.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Radix.Portal>
        <Radix.Overlay className="dialog-backdrop" />
        <Radix.Content
          className={variant === 'drawer' ? 'dialog dialog-drawer' : 'dialog'}
          role={role}
          aria-modal="true"
          data-testid={testId}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
          }}
        >
          <Radix.Title className="dialog-title">{title}</Radix.Title>
          {description && (
            <Radix.Description asChild>
              <div className="dialog-message">{description}</div>
            </Radix.Description>
          )}
          {children && <div className="dialog-body">{children}</div>}
          {footer && <div className="dialog-footer">{footer}</div>}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  /** When set, the user must type this text before confirming. */
  confirmText?: string;
  confirmLabel: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary';
  busy?: boolean;
  error?: string | undefined;
  onConfirm: (typed: string) => void;
  onClose: () => void;
  testId?: string;
}

/** A question with Cancel and a confirm button; optionally the user types a text first (typed confirmation). */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmText,
  confirmLabel,
  cancelLabel = 'Cancel',
  variant = 'danger',
  busy,
  error,
  onConfirm,
  onClose,
  testId = 'confirm-dialog',
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (open) setTyped('');
  }, [open]);
  const matches = confirmText === undefined || confirmsName(typed, confirmText);
  const confirm = () => {
    if (matches && !busy) onConfirm(typed);
  };
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      testId={testId}
      role={confirmText === undefined ? 'alertdialog' : 'dialog'}
      description={message}
      footer={
        <>
          <Button onClick={onClose} data-testid="cancel-button">
            {cancelLabel}
          </Button>
          <Button variant={variant} disabled={!matches} busy={busy ?? false} onClick={confirm} data-testid="confirm-button">
            {confirmLabel}
          </Button>
        </>
      }
    >
      {confirmText !== undefined ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            confirm();
          }}
        >
          <TextField
            label={`Type "${confirmText}" to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            data-testid="confirm-input"
            error={error}
          />
        </form>
      ) : (
        error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )
      )}
    </Dialog>
  );
}
