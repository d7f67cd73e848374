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
import { readMethod, text, writeMethod, type Json, type MethodRead } from '../project-config/method-providers';
import { projectProcedure, publicProcedure, router } from '../../trpc/init';

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

const listView = (read: MethodRead) => ({
  revisionId: read.revisionId,
  enabled: read.method.enabled !== false,
  providers: read.providers.map(view),
});

const notFound = (id: string) => new TRPCError({ code: 'NOT_FOUND', message: `The project has no social sign-in provider "${id}".` });

/** Social sign-in providers of a project (Ory's `selfservice.methods.oidc`), spec §2 `/social-signin`. */
export const socialProvidersRouter = router({
  list: projectProcedure('backoffice.project.read')
    .input(socialProvidersInput)
    .output(socialProviderListOutput)
    .query(async ({ ctx }) => listView(await readMethod(ctx, ctx.projectId, 'oidc'))),

  get: projectProcedure('backoffice.project.read')
    .input(socialProviderInput)
    .output(socialProviderOutput)
    .query(async ({ ctx, input }) => {
      const found = (await readMethod(ctx, ctx.projectId, 'oidc')).providers.find((p) => p.id === input.id);
      if (!found) throw notFound(input.id);
      return view(found);
    }),

  /** Adds a provider (`create`) or edits one, keeping the fields the form does not show and, when none is given, the secret. */
  set: projectProcedure('backoffice.project.write')
    .input(setSocialProviderInput)
    .output(socialProviderOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readMethod(ctx, ctx.projectId, 'oidc');
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
      const after = await writeMethod(ctx, ctx.projectId, 'oidc', read, index >= 0 ? `config/providers/${index}` : 'config/providers/-', next, index >= 0 ? 'replace' : 'add');
      const saved = after.providers.find((p) => p.id === input.id);
      if (!saved) throw new TRPCError({ code: 'BAD_GATEWAY', message: 'The project did not keep the provider.' });
      return view(saved);
    }),

  delete: projectProcedure('backoffice.project.write')
    .input(socialProviderInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readMethod(ctx, ctx.projectId, 'oidc');
      const index = read.providers.findIndex((p) => p.id === input.id);
      if (index < 0) throw notFound(input.id);
      await writeMethod(ctx, ctx.projectId, 'oidc', read, `config/providers/${index}`, undefined, 'remove');
      return { ok: true as const };
    }),

  /** Switches the whole method on or off (`selfservice.methods.oidc.enabled`). */
  setEnabled: projectProcedure('backoffice.project.write')
    .input(setSocialSignInEnabledInput)
    .output(socialProviderListOutput)
    .mutation(async ({ ctx, input }) => listView(await writeMethod(ctx, ctx.projectId, 'oidc', await readMethod(ctx, ctx.projectId, 'oidc'), 'enabled', input.enabled))),

  /** The provider kinds a project can add, with what each needs. */
  catalogue: publicProcedure.output(socialProviderCatalogueOutput).query(() => SOCIAL_PROVIDER_KINDS.map((k) => ({ ...k, scope: [...k.scope], fields: [...k.fields] }))),
});
