/**
 * Whether the console nags about verification comes from the session itself (an unverified address, in
 * any tab). What the browser keeps is only which verification flow the sign-up's code belongs to, so
 * "Verify now" resumes that flow (asking for the code, not the address, and sending nothing new) in
 * every tab of this browser.
 */
const KEY = 'console.verification-flow';

export interface VerificationNotice {
  /** The verification flow the code belongs to, when the provider named one. */
  flowId?: string;
}

interface ContinueItem {
  action: string;
  flow?: { id?: string; verifiable_address?: string };
}

/** The verification flow named by a registration's continue_with, if any. */
export function verificationFlowId(continueWith: readonly ContinueItem[] | undefined): string | undefined {
  return continueWith?.find((c) => c.action === 'show_verification_ui')?.flow?.id;
}

export function rememberVerificationSent(continueWith: readonly ContinueItem[] | undefined): void {
  const item = continueWith?.find((c) => c.action === 'show_verification_ui');
  if (!item?.flow?.id) return;
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ flowId: item.flow.id, address: item.flow.verifiable_address?.toLowerCase() ?? null }));
  } catch {
    // Storage refused (private mode): Verify now starts a new verification instead.
  }
}

/** The remembered flow of `address`'s code (a flow remembered for another address is none of its business). */
export function readVerificationSent(address?: string): VerificationNotice | null {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { flowId?: unknown; address?: unknown } | null;
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.flowId !== 'string') return null;
    if (address && typeof parsed.address === 'string' && parsed.address !== address.toLowerCase()) return null;
    return { flowId: parsed.flowId };
  } catch {
    return null;
  }
}

export function forgetVerificationSent(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}

/** The verification page, resuming the flow whose code was sent when known. */
export function verificationPath(notice: VerificationNotice | null): string {
  return notice?.flowId ? `/verification?flow=${encodeURIComponent(notice.flowId)}` : '/verification';
}
