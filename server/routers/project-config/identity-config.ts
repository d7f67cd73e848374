import type { Context } from '../../trpc/context';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** `services.identity.config` of a project's current revision, and whether its parents exist (a patch adds them when not). */
export interface IdentityConfigRead {
  revisionId: string;
  hasIdentity: boolean;
  hasConfig: boolean;
  config: Json;
}

/** `services.identity.config` of the project's current revision, read with the caller's cookie. */
export async function readIdentityConfig(ctx: Context, projectId: string): Promise<IdentityConfigRead> {
  const project = await ctx.deps.backoffice.getProject(ctx.call, projectId);
  const identity = project.services.identity;
  const config = obj(identity).config;
  return { revisionId: project.revision_id, hasIdentity: isObject(identity), hasConfig: isObject(config), config: obj(config) };
}

/** The value at a path of keys in a JSON object, or undefined where the path stops. */
export function valueAt(config: Json, path: readonly string[]): unknown {
  let at: unknown = config;
  for (const key of path) at = isObject(at) ? at[key] : undefined;
  return at;
}
