import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  accountSessionsOutput,
  revokeOtherSessionsOutput,
  revokeSessionInput,
  revokeSessionOutput,
  type AccountSession,
  type Session,
} from '../../../shared/schemas/session';
import { authedProcedure } from '../../trpc/init';

/*
 * The sessions of the caller's own console account (/settings/advanced): listed and revoked through the
 * identity provider's frontend API with the caller's cookie, so no one reaches another account's sessions.
 */

const wireSession = z.looseObject({
  id: z.string(),
  authenticated_at: z.string().optional(),
  expires_at: z.string().optional(),
  authenticator_assurance_level: z.string().optional(),
  authentication_methods: z.array(z.looseObject({ method: z.string().optional() })).optional(),
  devices: z.array(z.looseObject({ user_agent: z.string().optional(), ip_address: z.string().optional(), location: z.string().optional() })).optional(),
  identity: z.looseObject({ id: z.string() }).optional(),
});

function summary(raw: unknown, current: boolean): AccountSession | null {
  const parsed = wireSession.safeParse(raw);
  if (!parsed.success) return null;
  const s = parsed.data;
  return {
    id: s.id,
    current,
    authenticated_at: s.authenticated_at ?? null,
    expires_at: s.expires_at ?? null,
    aal: s.authenticator_assurance_level ?? null,
    methods: (s.authentication_methods ?? []).flatMap((m) => (m.method ? [m.method] : [])),
    devices: (s.devices ?? []).map((d) => ({ user_agent: d.user_agent ?? null, ip_address: d.ip_address ?? null, location: d.location ?? null })),
  };
}

/** The caller's sessions: the current one first, then the others. */
export const sessions = authedProcedure.output(accountSessionsOutput).query(async ({ ctx }) => {
  // The current session read afresh, not from the request's short whoami cache: a second factor enrolled a
  // moment ago changes its methods and assurance level, and this list is where the user looks for that.
  const [fresh, others] = await Promise.all([ctx.deps.ory.toSession(ctx.call).catch(() => ctx.session), ctx.deps.ory.mySessions(ctx.call).listOthers()]);
  const session: Session = fresh;
  const current = summary(session, true);
  const list = [...(current ? [current] : []), ...others.flatMap((raw) => summary(raw, false) ?? [])];
  return { identityId: session.identity?.id ?? '', sessions: list };
});

/** Ends one other session of the caller's account; the current one ends by signing out. */
export const revokeSession = authedProcedure
  .input(revokeSessionInput)
  .output(revokeSessionOutput)
  .mutation(async ({ ctx, input }) => {
    if (input.sessionId === ctx.session.id) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This is the session you are using: sign out to end it.' });
    }
    await ctx.deps.ory.mySessions(ctx.call).revoke(input.sessionId);
    return { revoked: true as const };
  });

/** Ends every other session of the caller's account. */
export const revokeOtherSessions = authedProcedure.output(revokeOtherSessionsOutput).mutation(async ({ ctx }) => {
  const count = await ctx.deps.ory.mySessions(ctx.call).revokeOthers();
  return { count };
});
