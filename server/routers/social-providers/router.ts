import { TRPCError } from '@trpc/server';
import { SOCIAL_PROVIDER_KINDS } from '../../../shared/domain/social-providers';
import {
  okOutput,
  setSocialProviderInput,
  setSocialSignInEnabledInput,
  socialProviderCatalogueOutput,
  socialProviderInput,
  socialProviderListOutput,
  socialProviderOutput,
  socialProvidersInput,
  type SocialProviderView,
} from '../../../shared/schemas/social-providers';
import type { Context } from '../../trpc/context';
import { projectProcedure, publicProcedure, router } from '../../trpc/init';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const isObj = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The path of the OpenID Connect method in the project, and the keys leading to it. */
const OIDC_PATH = ['services', 'identity', 'config', 'selfservice', 'methods', 'oidc'] as const;

interface Read {
  revisionId: string;
  project: Json;
  oidc: Json;
  providers: Json[];
}

/** `selfservice.methods.oidc` of the project's current revision, read with the caller's cookie. */
async function readOidc(ctx: Context, projectId: string): Promise<Read> {
  const project = (await ctx.deps.backoffice.getProject(ctx.call, projectId)) as unknown as Json;
  let at: unknown = project;
  for (const key of OIDC_PATH) at = obj(at)[key];
  const oidc = obj(at);
  const list = obj(oidc.config).providers;
  return { revisionId: text(project.revision_id), project, oidc, providers: Array.isArray(list) ? list.map(obj) : [] };
}

function view(p: Json): SocialProviderView {
  const pkce = p.pkce === 'force' || p.pkce === 'never' ? p.pkce : 'auto';
  return {
    id: text(p.id),
    provider: text(p.provider) || 'generic',
    label: text(p.label),
    client_id: text(p.client_id),
    client_secret_set: text(p.client_secret) !== '',
    issuer_url: text(p.issuer_url),
    auth_url: text(p.auth_url),
    token_url: text(p.token_url),
    microsoft_tenant: text(p.microsoft_tenant),
    scope: Array.isArray(p.scope) ? p.scope.filter((s): s is string => typeof s === 'string') : [],
    mapper_url: text(p.mapper_url),
    pkce,
    organization_id: typeof p.organization_id === 'string' && p.organization_id !== '' ? p.organization_id : null,
  };
}

const listView = (read: Read) => ({
  revisionId: read.revisionId,
  enabled: read.oidc.enabled !== false,
  providers: read.providers.map(view),
});

/**
 * A JSON patch that writes `value` at `selfservice.methods.oidc.<rest>`, creating the objects on the way
 * that the project does not have yet, on the revision it was read from (a racing edit answers CONFLICT).
 */
async function writeOidc(ctx: Context, projectId: string, read: Read, rest: string, value: unknown, op: 'add' | 'replace' | 'remove' = 'add') {
  const ops: { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown }[] = [];
  let at: unknown = read.project;
  let path = '';
  for (const key of [...OIDC_PATH, 'config', 'providers']) {
    const next = obj(at)[key];
    path += `/${key}`;
    if (key === 'providers') {
      if (!Array.isArray(next)) ops.push({ op: 'add', path, value: [] });
    } else if (!isObj(next)) {
      ops.push({ op: 'add', path, value: {} });
    }
    at = next;
  }
  ops.push(op === 'remove' ? { op, path: `/${OIDC_PATH.join('/')}/${rest}` } : { op, path: `/${OIDC_PATH.join('/')}/${rest}`, value });
  await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, projectId, read.revisionId, ops as never);
  return readOidc(ctx, projectId);
}

const notFound = (id: string) => new TRPCError({ code: 'NOT_FOUND', message: `The project has no social sign-in provider "${id}".` });

/** Social sign-in providers of a project (Ory's `selfservice.methods.oidc`), spec §2 `/social-signin`. */
export const socialProvidersRouter = router({
  list: projectProcedure('backoffice.project.read')
    .input(socialProvidersInput)
    .output(socialProviderListOutput)
    .query(async ({ ctx }) => listView(await readOidc(ctx, ctx.projectId))),

  get: projectProcedure('backoffice.project.read')
    .input(socialProviderInput)
    .output(socialProviderOutput)
    .query(async ({ ctx, input }) => {
      const found = (await readOidc(ctx, ctx.projectId)).providers.find((p) => p.id === input.id);
      if (!found) throw notFound(input.id);
      return view(found);
    }),

  /** Adds a provider (`create`) or edits one, keeping the fields the form does not show and, when none is given, the secret. */
  set: projectProcedure('backoffice.project.write')
    .input(setSocialProviderInput)
    .output(socialProviderOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readOidc(ctx, ctx.projectId);
      const index = read.providers.findIndex((p) => p.id === input.id);
      if (input.create && index >= 0) {
        throw new TRPCError({ code: 'CONFLICT', message: `A provider with the ID "${input.id}" exists already; pick another ID.` });
      }
      if (!input.create && index < 0) throw notFound(input.id);
      const current = index >= 0 ? read.providers[index]! : {};
      const { projectId: _p, create: _c, client_secret, ...fields } = input;
      const next: Json = { ...current };
      for (const [key, value] of Object.entries(fields)) {
        if (value === undefined) continue;
        if (value === '') delete next[key];
        else next[key] = value;
      }
      if (client_secret) next.client_secret = client_secret;
      if (!next.client_secret) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Give the client secret the provider issued.' });
      if (!Array.isArray(next.scope)) next.scope = SOCIAL_PROVIDER_KINDS.find((k) => k.kind === input.provider)?.scope ?? ['openid'];
      if (next.mapper_url === undefined) next.mapper_url = '';
      const after = await writeOidc(ctx, ctx.projectId, read, index >= 0 ? `config/providers/${index}` : 'config/providers/-', next, index >= 0 ? 'replace' : 'add');
      const saved = after.providers.find((p) => p.id === input.id);
      if (!saved) throw new TRPCError({ code: 'BAD_GATEWAY', message: 'The project did not keep the provider.' });
      return view(saved);
    }),

  delete: projectProcedure('backoffice.project.write')
    .input(socialProviderInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readOidc(ctx, ctx.projectId);
      const index = read.providers.findIndex((p) => p.id === input.id);
      if (index < 0) throw notFound(input.id);
      await writeOidc(ctx, ctx.projectId, read, `config/providers/${index}`, undefined, 'remove');
      return { ok: true as const };
    }),

  /** Switches the whole method on or off (`selfservice.methods.oidc.enabled`). */
  setEnabled: projectProcedure('backoffice.project.write')
    .input(setSocialSignInEnabledInput)
    .output(socialProviderListOutput)
    .mutation(async ({ ctx, input }) => listView(await writeOidc(ctx, ctx.projectId, await readOidc(ctx, ctx.projectId), 'enabled', input.enabled))),

  /** The provider kinds a project can add, with what each needs. */
  catalogue: publicProcedure.output(socialProviderCatalogueOutput).query(() => SOCIAL_PROVIDER_KINDS.map((k) => ({ ...k, scope: [...k.scope], fields: [...k.fields] }))),
});
