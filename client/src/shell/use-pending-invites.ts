import { trpc } from '../trpc';

/** How many invites wait for the signed-in user's answer (0 while unknown). */
export function usePendingInvites(): number {
  const mine = trpc.invites.mine.useQuery(undefined, { staleTime: 30_000 });
  return (mine.data ?? []).filter((invite) => invite.status === 'pending').length;
}
