/**
 * After sign-up the identity provider sends a verification code. The registration page remembers that
 * (for this tab only) so the console can say so and offer "Verify now" until the address is verified.
 */
const KEY = 'console.verification-sent';

export interface VerificationNotice {
  /** The verification flow the code belongs to, when the provider named one. */
  flowId?: string;
}

interface ContinueItem {
  action: string;
  flow?: { id?: string };
}

/** The verification flow named by a registration's continue_with, if any. */
export function verificationFlowId(continueWith: readonly ContinueItem[] | undefined): string | undefined {
  return continueWith?.find((c) => c.action === 'show_verification_ui')?.flow?.id;
}

export function rememberVerificationSent(continueWith: readonly ContinueItem[] | undefined): void {
  if (!continueWith?.some((c) => c.action === 'show_verification_ui')) return;
  const flowId = verificationFlowId(continueWith);
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(flowId ? { flowId } : {}));
  } catch {
    // Storage refused (private mode): the banner is a convenience, the account settings still tell.
  }
}

export function readVerificationSent(): VerificationNotice | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const flowId = (parsed as { flowId?: unknown }).flowId;
    return typeof flowId === 'string' ? { flowId } : {};
  } catch {
    return null;
  }
}

export function forgetVerificationSent(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}

/** The verification page, resuming the flow whose code was sent when known. */
export function verificationPath(notice: VerificationNotice | null): string {
  return notice?.flowId ? `/verification?flow=${encodeURIComponent(notice.flowId)}` : '/verification';
}
