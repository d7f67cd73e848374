import type { Context } from '../../trpc/context';

export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
export const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The sign-in methods whose providers a project lists in `selfservice.methods.<method>.config.providers`. */
export type ProviderMethod = 'oidc' | 'saml';

const pathOf = (method: ProviderMethod) => ['services', 'identity', 'config', 'selfservice', 'methods', method] as const;

export interface MethodRead {
  revisionId: string;
  project: Json;
  /** `selfservice.methods.<method>` as stored (empty when the project has none). */
  method: Json;
  providers: Json[];
}

/** `selfservice.methods.<method>` of the project's current revision, read with the caller's cookie. */
export async function readMethod(ctx: Context, projectId: string, method: ProviderMethod): Promise<MethodRead> {
  const project = (await ctx.deps.backoffice.getProject(ctx.call, projectId)) as unknown as Json;
  let at: unknown = project;
  for (const key of pathOf(method)) at = obj(at)[key];
  const list = obj(obj(at).config).providers;
  return { revisionId: text(project.revision_id), project, method: obj(at), providers: Array.isArray(list) ? list.map(obj) : [] };
}

/**
 * A JSON patch that writes `value` at `selfservice.methods.<method>.<rest>`, creating the objects on the way
 * that the project does not have yet, on the revision it was read from (a racing edit answers CONFLICT).
 * Everything else in the project, fields the console does not show included, is left as it is.
 */
export async function writeMethod(
  ctx: Context,
  projectId: string,
  method: ProviderMethod,
  read: MethodRead,
  rest: string,
  value: unknown,
  op: 'add' | 'replace' | 'remove' = 'add',
): Promise<MethodRead> {
  const base = pathOf(method);
  const ops: { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown }[] = [];
  let at: unknown = read.project;
  let path = '';
  for (const key of [...base, 'config', 'providers']) {
    const next = obj(at)[key];
    path += `/${key}`;
    if (key === 'providers') {
      if (!Array.isArray(next)) ops.push({ op: 'add', path, value: [] });
    } else if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      ops.push({ op: 'add', path, value: {} });
    }
    at = next;
  }
  ops.push(op === 'remove' ? { op, path: `/${base.join('/')}/${rest}` } : { op, path: `/${base.join('/')}/${rest}`, value });
  await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, projectId, read.revisionId, ops as never);
  return readMethod(ctx, projectId, method);
}
