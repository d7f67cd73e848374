import type { SessionInfo } from './context';

/**
 * Who calls the control plane: a signed-in identity (session cookie or X-Session-Token), or a workspace
 * API key (`Authorization: Bearer ory_wak_…`), which acts as an owner of its workspace and of the projects
 * in it, and on nothing else.
 */
export type Caller =
  | { kind: 'session'; identityId: string; session: SessionInfo }
  | { kind: 'workspace-key'; workspaceId: string; keyId: string; ownerId: string };

/** The identity a write is recorded for: the signed-in user, or the creator of the key used. */
export const actorId = (caller: Caller): string => (caller.kind === 'session' ? caller.identityId : caller.ownerId);
