import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { schemaOfUrl, textOfUrl } from '../../../shared/domain/identity-schema-config';
import { describeProblems, locateProblems, parseSchemaText, placeProblems } from '../../../shared/domain/schema-problems';
import {
  managedSchemaOutput,
  metaSchemaOutput,
  managedSchemaWithContentOutput,
  presetsOutput,
  schemaCreateInput,
  schemaGetInput,
  schemasListOutput,
  schemaSetDefaultInput,
  schemasProjectInput,
  schemaUpdateInput,
  schemaValidateInput,
  schemaValidateOutput,
  setDefaultOutput,
} from '../../../shared/schemas/identity-schemas';
import type { Context } from '../../trpc/context';
import { authedProcedure, dataPlaneProcedure, projectProcedure, router } from '../../trpc/init';
import { UpstreamError } from '../../upstream/errors';
import { activeSchemas } from './active';
import { defaultPatchFor, managedView, presetView, sourceOf } from './views';

/** The project's managed schema `schemaId`, or NOT_FOUND when the project has none by that id. */
async function ownSchema(ctx: { deps: Context['deps']; call: Context['call']; projectId: string }, schemaId: string) {
  const row = (await ctx.deps.backoffice.identitySchemas.list(ctx.call, ctx.projectId)).find((s) => s.id === schemaId);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'The identity schema does not exist in this project.' });
  return row;
}

const read = projectProcedure('backoffice.project.read');
const write = projectProcedure('backoffice.project.write');

/** The schema of the editor's text, or BAD_REQUEST naming the line of its first problems. */
function schemaOrRefuse(text: string) {
  const parsed = parseSchemaText(text);
  if (!parsed.ok) throw new TRPCError({ code: 'BAD_REQUEST', message: `The identity schema is not valid. ${describeProblems(parsed.problems)}` });
  return parsed;
}

/** The problems a refusal of an invalid schema names in its `error.details`. */
const refusedProblems = z.object({ problems: z.array(z.object({ pointer: z.string(), message: z.string() })).min(1) });

/** A refusal of the identity service for an invalid schema, its problems (`details.problems`) placed at their lines of the text. */
function atLines(err: unknown, positions: ReturnType<typeof schemaOrRefuse>['positions']): never {
  const refused = err instanceof UpstreamError && err.status === 400 ? refusedProblems.safeParse(err.details) : undefined;
  if (refused?.success) {
    const problems = placeProblems(refused.data.problems, positions);
    throw new TRPCError({ code: 'BAD_REQUEST', message: `The identity schema is not valid. ${describeProblems(problems)}` });
  }
  throw err;
}

/**
 * Identity schemas of a project (spec §7 /identity-schemas, /presets/identity/schemas): the control plane's
 * managed schemas and presets, the project's config for which one is default, the data plane for what its
 * identity service really has. Members read them (`backoffice.project.read`), writers change them (`…write`).
 */
export const schemasRouter = router({
  /** Ory's identity meta-schema: what every identity schema is checked against (the same for every project). */
  metaSchema: authedProcedure.output(metaSchemaOutput).query(({ ctx }) => ctx.deps.backoffice.identityMetaSchema(ctx.call)),

  presets: read
    .input(schemasProjectInput)
    .output(presetsOutput)
    .query(async ({ ctx }) => (await ctx.deps.backoffice.identitySchemas.presets(ctx.call)).map(presetView)),

  list: dataPlaneProcedure('backoffice.project.read')
    .input(schemasProjectInput)
    .output(schemasListOutput)
    .query(async ({ ctx }) => {
      const calls = ctx.deps.backoffice.identitySchemas;
      const [managed, presets, project, active] = await Promise.all([
        calls.list(ctx.call, ctx.projectId),
        calls.presets(ctx.call),
        calls.getProject(ctx.call, ctx.projectId),
        activeSchemas(ctx),
      ]);
      const managedViews = managed.map(managedView);
      const identity = (project.services.identity as { config?: { identity?: { default_schema_id?: unknown } } } | undefined)?.config?.identity;
      const configured = typeof identity?.default_schema_id === 'string' ? identity.default_schema_id : undefined;
      return {
        // The data plane lists the default first.
        defaultId: configured && active.some((s) => s.id === configured) ? configured : (active[0]?.id ?? 'default'),
        active: active.map((s) => ({
          id: s.id,
          schema: s.schema as Record<string, unknown>,
          source: sourceOf(s.id, managedViews, presets, project.services),
        })),
        managed: managedViews,
        presets: presets.map(presetView),
      };
    }),

  get: read
    .input(schemaGetInput)
    .output(managedSchemaWithContentOutput)
    .query(async ({ ctx, input }) => {
      const calls = ctx.deps.backoffice.identitySchemas;
      // Listed first: a schema of another project (even one the caller may read) is not this project's.
      const row = await ownSchema(ctx, input.schemaId);
      const location = (await calls.location(ctx.call, input.schemaId)).location ?? '';
      const schema = schemaOfUrl(location);
      if (!schema) throw new TRPCError({ code: 'BAD_GATEWAY', message: 'The identity schema could not be read.' });
      return { ...managedView(row), schema, text: textOfUrl(location) ?? JSON.stringify(schema, null, 2) };
    }),

  validate: read
    .input(schemaValidateInput)
    .output(schemaValidateOutput)
    // A mutation only for its transport: a schema does not fit in a GET's URL. It writes nothing.
    .mutation(async ({ ctx, input }) => {
      const parsed = parseSchemaText(input.schema);
      if (!parsed.ok) return { valid: false, problems: parsed.problems };
      const result = await ctx.deps.backoffice.identitySchemas.validate(ctx.call, { name: 'draft', data: parsed.schema });
      if (result.valid) return { valid: true, problems: [] };
      return { valid: false, problems: locateProblems(result.message ?? 'The identity schema is not valid.', parsed.positions) };
    }),

  create: write
    .input(schemaCreateInput)
    .output(managedSchemaOutput)
    .mutation(async ({ ctx, input }) => {
      const parsed = schemaOrRefuse(input.schema);
      const created = await ctx.deps.backoffice.identitySchemas
        .create(ctx.call, ctx.projectId, { name: input.name, data: parsed.schema, text: input.schema })
        .catch((err: unknown) => atLines(err, parsed.positions));
      return managedView(created);
    }),

  update: write
    .input(schemaUpdateInput)
    .output(managedSchemaOutput)
    .mutation(async ({ ctx, input }) => {
      const parsed = schemaOrRefuse(input.schema);
      await ownSchema(ctx, input.schemaId);
      const updated = await ctx.deps.backoffice.identitySchemas
        .update(ctx.call, input.schemaId, { name: input.name, data: parsed.schema, text: input.schema })
        .catch((err: unknown) => atLines(err, parsed.positions));
      return managedView(updated);
    }),

  /**
   * Makes a managed schema, a preset or a declared schema the project's default: a JSON patch of
   * `services.identity.config.identity` on the current revision (every other config field stays). The
   * control plane refuses (CONFLICT, saying how many) when existing identities would not match it.
   */
  setDefault: write
    .input(schemaSetDefaultInput)
    .output(setDefaultOutput)
    .mutation(async ({ ctx, input }) => {
      const calls = ctx.deps.backoffice.identitySchemas;
      const [project, managed, presets] = await Promise.all([
        calls.getProject(ctx.call, ctx.projectId),
        calls.list(ctx.call, ctx.projectId),
        calls.presets(ctx.call),
      ]);
      const patch = defaultPatchFor(project.services, input.schemaId, managed, presets);
      if (!patch) {
        throw new TRPCError({ code: 'NOT_FOUND', message: `The project has no identity schema "${input.schemaId.slice(0, 80)}". Choose one of its schemas or a preset.` });
      }
      await calls.patchRevision(ctx.call, ctx.projectId, project.revision_id, patch);
      const after = await calls.getProject(ctx.call, ctx.projectId);
      return { defaultId: input.schemaId, revisionId: after.revision_id };
    }),
});
