import toast from 'react-hot-toast';
import { errorReason, genericErrorMessage } from '../../../shared/domain/errors';

/** The address the generic fallback text points users to. */
export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@ory.sh';

/**
 * Spec §8 generic handler: logs the server's error.reason when present, then toasts
 * '<context message>: <error>' (default context 'An error occurred').
 */
export function showError(error: unknown, context?: string): string {
  const reason = errorReason(error);
  console.error(reason ?? error);
  const message = genericErrorMessage(error, SUPPORT_EMAIL, context);
  toast.error(message, { id: message });
  return message;
}
