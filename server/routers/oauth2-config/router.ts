import {
  OAUTH2_LIFESPANS,
  oauth2ConfigInput,
  oauth2ConfigOutput,
  oauth2SetLifespansInput,
  oauth2SetStrategiesInput,
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
  return {
    revisionId: read.revisionId,
    lifespans: { access_token: text(ttl.access_token), refresh_token: text(ttl.refresh_token), id_token: text(ttl.id_token), auth_code: text(ttl.auth_code) },
    strategies: { access_token: obj(read.config.strategies).access_token === 'jwt' ? 'jwt' : 'opaque' },
  };
}

/**
 * Writes one section of the config as a JSON patch on the revision it was read from: every other field of
 * the project survives, and an edit racing another answers CONFLICT instead of overwriting it.
 */
async function writeSection(ctx: Context, projectId: string, read: Read, section: string, value: Json): Promise<Read> {
  const ops: { op: 'add'; path: string; value: unknown }[] = [];
  if (!read.has.oauth2) ops.push({ op: 'add', path: '/services/oauth2', value: { config: {} } });
  else if (!read.has.config) ops.push({ op: 'add', path: '/services/oauth2/config', value: {} });
  ops.push({ op: 'add', path: `/services/oauth2/config/${section}`, value });
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
      return view(await writeSection(ctx, ctx.projectId, read, 'strategies', { ...obj(read.config.strategies), access_token: input.access_token }));
    }),
});
