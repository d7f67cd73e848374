import { BREACHED_PASSWORDS } from '../identity/breached-passwords';
import { texts, type UiText } from './texts';

/* The password strategy's policy (Kratos' selfservice/strategy/password/validator.go), which registration and settings apply. */

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 72;

function lcsLength(a: string, b: string): number {
  let best = 0;
  const prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      prev[j] = a[i - 1] === b[j - 1] ? diag + 1 : 0;
      best = Math.max(best, prev[j] ?? 0);
      diag = up;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** The project's password rules (`selfservice.methods.password.config`). */
export interface PasswordPolicy {
  minLength: number;
  identifierSimilarity: boolean;
  breachedCheck: boolean;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: MIN_PASSWORD_LENGTH, identifierSimilarity: true, breachedCheck: true };

/** Kratos' password policy: length bounds, not too similar to the identifier, not a known breached password. */
export function passwordPolicyError(password: string, identifier: string, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): UiText | null {
  const length = [...password].length;
  if (length < policy.minLength) return texts.passwordMinLength(policy.minLength, length);
  if (length > MAX_PASSWORD_LENGTH) return texts.passwordMaxLength(MAX_PASSWORD_LENGTH, length);
  if (identifier && policy.identifierSimilarity) {
    const id = identifier.toLowerCase();
    const pw = password.toLowerCase();
    if (levenshtein(id, pw) < 5 || lcsLength(id, pw) / pw.length > 0.5) return texts.passwordTooSimilar();
  }
  // Kratos asks haveibeenpwned last; here a bundled list of the most common passwords stands in for it.
  if (policy.breachedCheck && BREACHED_PASSWORDS.has(password)) return texts.passwordBreached();
  return null;
}
