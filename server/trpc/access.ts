import { MESSAGES } from '../../shared/messages';
import type { Context } from './context';

export type AccessKind = 'project' | 'workspace';

/**
 * Answers permission questions about one project or workspace for the caller, asking the control plane
 * only for the names not answered in the last few seconds (per instance, per session).
 */
export async function checkAccess(ctx: Context, kind: AccessKind, id: string, permissions: string[]): Promise<Record<string, boolean>> {
  const { caches, backoffice } = ctx.deps;
  const key = ctx.sessionKey ? `${ctx.sessionKey}|${kind}|${id}` : undefined;
  const known = (key && caches.access.get(key)) || {};
  const missing = permissions.filter((p) => !(p in known));
  let merged = known;
  if (missing.length > 0) {
    // The procedures of one batch ask the same question at once: one call upstream answers them all.
    const answer = await caches.inFlight.run(key && `${key}|${missing.join(',')}`, () =>
      kind === 'project' ? backoffice.projectAccess(ctx.call, id, missing) : backoffice.workspaceAccess(ctx.call, id, missing),
    );
    merged = { ...known };
    for (const name of missing) merged[name] = answer[name] === true;
    if (key) caches.access.set(key, merged);
  }
  return Object.fromEntries(permissions.map((p) => [p, merged[p] === true]));
}

/** After a change that may alter permissions (delete, move), forget what this session knew about the object. */
export function forgetAccess(ctx: Context, kind: AccessKind, id: string): void {
  if (ctx.sessionKey) ctx.deps.caches.access.delete(`${ctx.sessionKey}|${kind}|${id}`);
}

const VERBS: Record<string, string> = { write: 'change', delete: 'delete', upgrade: 'upgrade', owner: 'manage the members and API keys of' };

/** What a caller refused `permission` is told: the spec's text when a project cannot be read at all. */
export function deniedMessage(kind: AccessKind, permission: string): string {
  const verb = VERBS[permission.slice(permission.lastIndexOf('.') + 1)];
  if (!verb) return kind === 'project' ? MESSAGES.projectAccessFailure : "You don't have access to this workspace.";
  return `You don't have permission to ${verb} this ${kind}.`;
}
