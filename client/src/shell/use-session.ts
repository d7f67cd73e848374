import type { Identity, Session } from '../../../shared/schemas/session';
import { trpc } from '../trpc';
import { QUERY_RULES } from '../lib/query-client';

/** The signed-in session, read once from the identity provider (stale after 1 h, not retried). */
export function useSession(enabled = true) {
  return trpc.auth.session.useQuery(undefined, { ...QUERY_RULES.session, enabled });
}

/**
 * The identity of a session answer. tRPC's JSON typing flattens the loose (pass-through) schemas,
 * so the shared Identity type is restored here.
 */
export function sessionIdentity(data: { session: unknown } | undefined): Identity | undefined {
  const session = data?.session as Session | null | undefined;
  return session?.identity;
}

/** Spec §4: a session whose active flag is true means the user is authenticated. */
export function isAuthenticated(data: { session: unknown } | undefined): boolean {
  const session = data?.session as Session | null | undefined;
  return session?.active === true;
}
