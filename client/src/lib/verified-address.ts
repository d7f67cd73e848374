import type { Identity } from '../../../shared/schemas/session';

/** The address the identity signs in with (its email trait). */
export function primaryAddress(identity: Identity): string {
  return identity.traits.email;
}

/** True when the identity's email address is verified (spec: verifiable_addresses). */
export function isEmailVerified(identity: Identity): boolean {
  const email = primaryAddress(identity).toLowerCase();
  return (identity.verifiable_addresses ?? []).some((a) => a.value.toLowerCase() === email && a.verified);
}

/** A session answer whose identity has `email` verified (after a verification flow passed). */
export function markVerified<T extends { session: unknown }>(data: T | undefined, email: string): T | undefined {
  const session = data?.session as { identity?: Identity } | null | undefined;
  const identity = session?.identity;
  if (!data || !session || !identity) return data;
  const lower = email.toLowerCase();
  const verifiable_addresses = (identity.verifiable_addresses ?? []).map((a) =>
    a.value.toLowerCase() === lower ? { ...a, verified: true, status: 'completed' } : a,
  );
  return { ...data, session: { ...session, identity: { ...identity, verifiable_addresses } } };
}
