import {
  OAUTH2_LIFESPANS,
  oauth2ConfigInput,
  oauth2ConfigOutput,
  oauth2SetLifespansInput,
  oauth2SetCookiesInput,
  oauth2SetConfigureInput,
  oauth2SetOpenIdInput,
  oauth2SetStrategiesInput,
  oauth2SetUrlsInput,
  type OAuth2Config,
} from '../../../shared/schemas/oauth2';
import type { Context } from '../../trpc/context';
import { projectProcedure, router } from '../../trpc/init';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

interface Read {
  revisionId: string;
  config: Json;
  has: { oauth2: boolean; config: boolean };
}

/** `services.oauth2.config` of the project's current revision, read with the caller's cookie. */
async function readConfig(ctx: Context, projectId: string): Promise<Read> {
  const project = await ctx.deps.backoffice.getProject(ctx.call, projectId);
  const oauth2 = project.services.oauth2;
  const config = obj(oauth2).config;
  return {
    revisionId: project.revision_id,
    config: obj(config),
    has: { oauth2: typeof oauth2 === 'object' && oauth2 !== null, config: typeof config === 'object' && config !== null },
  };
}

function view(read: Read): OAuth2Config {
  const ttl = obj(read.config.ttl);
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const urls = obj(read.config.urls);
  const pkce = obj(obj(read.config.oauth2).pkce);
  const subjects = obj(obj(read.config.oidc).subject_identifiers);
  const rawTypes = subjects.supported_types;
  const types = (Array.isArray(rawTypes) ? rawTypes : []).filter((t): t is 'public' | 'pairwise' => t === 'public' || t === 'pairwise');
  const sameSite = obj(obj(read.config.serve).cookies).same_site_mode;
  return {
    revisionId: read.revisionId,
    lifespans: { access_token: text(ttl.access_token), refresh_token: text(ttl.refresh_token), id_token: text(ttl.id_token), auth_code: text(ttl.auth_code) },
    strategies: {
      access_token: obj(read.config.strategies).access_token === 'jwt' ? 'jwt' : 'opaque',
      // Hydra matches scopes by wildcard unless told `exact`.
      scope: obj(read.config.strategies).scope === 'exact' ? 'exact' : 'wildcard',
    },
    urls: {
      login: text(urls.login),
      consent: text(urls.consent),
      logout: text(urls.logout),
      error: text(urls.error),
      post_logout_redirect: text(urls.post_logout_redirect),
      issuer: text(obj(urls.self).issuer),
    },
    configure: {
      pkce_enforced: pkce.enforced === true,
      pkce_enforced_for_public_clients: pkce.enforced_for_public_clients === true,
      dynamic_client_registration: obj(obj(read.config.oidc).dynamic_client_registration).enabled === true,
    },
    openid: {
      subject_types: types.length ? [...new Set(types)] : ['public'],
      pairwise_salt_set: typeof obj(subjects.pairwise).salt === 'string',
    },
    cookies: { same_site_mode: sameSite === 'Strict' || sameSite === 'None' ? sameSite : 'Lax' },
  };
}

/**
 * Writes one section of the config as a JSON patch on the revision it was read from: every other field of
 * the project survives, and an edit racing another answers CONFLICT instead of overwriting it.
 */
async function writeSection(ctx: Context, projectId: string, read: Read, section: string, value: Json, more: Record<string, Json> = {}): Promise<Read> {
  const ops: { op: 'add'; path: string; value: unknown }[] = [];
  if (!read.has.oauth2) ops.push({ op: 'add', path: '/services/oauth2', value: { config: {} } });
  else if (!read.has.config) ops.push({ op: 'add', path: '/services/oauth2/config', value: {} });
  for (const [name, sectionValue] of Object.entries({ [section]: value, ...more })) {
    ops.push({ op: 'add', path: `/services/oauth2/config/${name}`, value: sectionValue });
  }
  await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, projectId, read.revisionId, ops);
  return readConfig(ctx, projectId);
}

/** The settings of the project's OAuth2 server (spec §2 `/oauth/lifespans`, `/oauth/strategies`). */
export const oauth2ConfigRouter = router({
  get: projectProcedure('backoffice.project.read')
    .input(oauth2ConfigInput)
    .output(oauth2ConfigOutput)
    .query(async ({ ctx }) => view(await readConfig(ctx, ctx.projectId))),

  setLifespans: projectProcedure('backoffice.project.write')
    .input(oauth2SetLifespansInput)
    .output(oauth2ConfigOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readConfig(ctx, ctx.projectId);
      const ttl = { ...obj(read.config.ttl) };
      for (const key of OAUTH2_LIFESPANS) {
        const value = input[key];
        if (value === undefined) continue;
        if (value === '') delete ttl[key];
        else ttl[key] = value;
      }
      return view(await writeSection(ctx, ctx.projectId, read, 'ttl', ttl));
    }),

  setStrategies: projectProcedure('backoffice.project.write')
    .input(oauth2SetStrategiesInput)
    .output(oauth2ConfigOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readConfig(ctx, ctx.projectId);
      const strategies = { ...obj(read.config.strategies) };
      if (input.access_token !== undefined) strategies.access_token = input.access_token;
      if (input.scope !== undefined) strategies.scope = input.scope;
      return view(await writeSection(ctx, ctx.projectId, read, 'strategies', strategies));
    }),

  /** Login, consent, logout, error and post-logout URLs; an empty one goes back to the default. */
  setUrls: projectProcedure('backoffice.project.write')
    .input(oauth2SetUrlsInput)
    .output(oauth2ConfigOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readConfig(ctx, ctx.projectId);
      const urls = { ...obj(read.config.urls) };
      for (const key of ['login', 'consent', 'logout', 'error', 'post_logout_redirect'] as const) {
        const value = input[key];
        if (value === undefined) continue;
        if (value === '') delete urls[key];
        else urls[key] = value;
      }
      // Hydra keeps the issuer under urls.self.issuer.
      if (input.issuer !== undefined) {
        const self = { ...obj(urls.self) };
        if (input.issuer === '') delete self.issuer;
        else self.issuer = input.issuer;
        if (Object.keys(self).length > 0) urls.self = self;
        else delete urls.self;
      }
      return view(await writeSection(ctx, ctx.projectId, read, 'urls', urls));
    }),

  /** PKCE enforcement (Hydra's `oauth2.pkce`) and dynamic client registration (`oidc.dynamic_client_registration`). */
  setConfigure: projectProcedure('backoffice.project.write')
    .input(oauth2SetConfigureInput)
    .output(oauth2ConfigOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readConfig(ctx, ctx.projectId);
      const oauth2 = obj(read.config.oauth2);
      const pkce = { ...obj(oauth2.pkce) };
      if (input.pkce_enforced !== undefined) pkce.enforced = input.pkce_enforced;
      if (input.pkce_enforced_for_public_clients !== undefined) pkce.enforced_for_public_clients = input.pkce_enforced_for_public_clients;
      const more: Record<string, Json> = {};
      if (input.dynamic_client_registration !== undefined) {
        const oidc = obj(read.config.oidc);
        more.oidc = { ...oidc, dynamic_client_registration: { ...obj(oidc.dynamic_client_registration), enabled: input.dynamic_client_registration } };
      }
      return view(await writeSection(ctx, ctx.projectId, read, 'oauth2', { ...oauth2, pkce }, more));
    }),

  /** OpenID Connect subject types (public, pairwise) and the pairwise salt, which is never answered. */
  setOpenId: projectProcedure('backoffice.project.write')
    .input(oauth2SetOpenIdInput)
    .output(oauth2ConfigOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readConfig(ctx, ctx.projectId);
      const oidc = obj(read.config.oidc);
      const subjects = { ...obj(oidc.subject_identifiers) };
      if (input.subject_types) subjects.supported_types = [...new Set(input.subject_types)];
      if (input.pairwise_salt) subjects.pairwise = { ...obj(subjects.pairwise), salt: input.pairwise_salt };
      return view(await writeSection(ctx, ctx.projectId, read, 'oidc', { ...oidc, subject_identifiers: subjects }));
    }),

  /** The SameSite mode of the server's cookies. */
  setCookies: projectProcedure('backoffice.project.write')
    .input(oauth2SetCookiesInput)
    .output(oauth2ConfigOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readConfig(ctx, ctx.projectId);
      const serve = obj(read.config.serve);
      return view(await writeSection(ctx, ctx.projectId, read, 'serve', { ...serve, cookies: { ...obj(serve.cookies), same_site_mode: input.same_site_mode } }));
    }),
});
