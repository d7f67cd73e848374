import { TRPCError } from '@trpc/server';
import { featureFlagsPatch, rulesPatch } from '../../../shared/permissions/config';
import { parseOpl } from '../../../shared/permissions/opl';
import { editorProblem, overviewOf } from '../../../shared/permissions/overview';
import { projectInput, rulesOutput, rulesSetFeatureFlagsInput, rulesSetInput, rulesValidateInput, rulesValidateOutput } from '../../../shared/schemas/relationships';
import { dataPlaneProcedure, projectProcedure, router } from '../../trpc/init';
import type { ProjectApis } from '../../upstream/project-apis';
import { projectRules, type ProjectRulesView } from './rules';

const flagsOf = (rules: ProjectRulesView) => ({ strict_mode: rules.mode.strict, expand_rewrites: rules.mode.expandRewrites });

/** The permission service's syntax check of a text, its problems at editor positions, and what the text declares. */
async function validate(apis: ProjectApis, opl: string) {
  const { data } = await apis.relationship.checkOplSyntax({ body: opl });
  const problems = (data.errors ?? []).map((e) => editorProblem(opl, e));
  const namespaces = problems.length === 0 ? overviewOf(parseOpl(opl).namespaces) : [];
  return { valid: problems.length === 0, problems, namespaces };
}

const describe = (problems: { message: string; line: number; column: number }[]) =>
  problems
    .slice(0, 3)
    .map((p) => `line ${p.line}, column ${p.column}: ${p.message}`)
    .join('; ') + (problems.length > 3 ? ` (and ${problems.length - 3} more)` : '');

/**
 * A project's permission rules (the Ory Permission Language in `services.permission.config.namespaces`):
 * members read them, writers check and save them; a text with problems is never saved, and a save based on
 * an older revision of the project is refused as stale.
 */
export const permissionRulesRouter = router({
  get: projectProcedure('backoffice.project.read')
    .input(projectInput)
    .output(rulesOutput)
    .query(async ({ ctx }) => {
      const rules = await projectRules(ctx);
      return {
        opl: rules.opl,
        revisionId: rules.revisionId,
        namespaces: overviewOf(rules.namespaces),
        problems: rules.errors.map((e) => editorProblem(rules.opl, e)),
        featureFlags: flagsOf(rules),
      };
    }),

  validate: dataPlaneProcedure('backoffice.project.read')
    .input(rulesValidateInput)
    .output(rulesValidateOutput)
    .query(async ({ ctx, input }) => validate(ctx.apis, input.opl)),

  set: dataPlaneProcedure('backoffice.project.write')
    .input(rulesSetInput)
    .output(rulesOutput)
    .mutation(async ({ ctx, input }) => {
      const checked = await validate(ctx.apis, input.opl);
      if (!checked.valid) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: `The rules have problems; fix them before saving: ${describe(checked.problems)}.` });
      }
      const current = await projectRules(ctx);
      const revisionId = input.revisionId ?? current.revisionId;
      await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, ctx.projectId, revisionId, rulesPatch(current.services, input.opl));
      const saved = await projectRules(ctx);
      return { opl: saved.opl, revisionId: saved.revisionId, namespaces: overviewOf(saved.namespaces), problems: [], featureFlags: flagsOf(saved) };
    }),

  /** Keto's strict mode and expand rewrites (`services.permission.config.feature_flags`), by the revision-conflict rule. */
  setFeatureFlags: projectProcedure('backoffice.project.write')
    .input(rulesSetFeatureFlagsInput)
    .output(rulesOutput)
    .mutation(async ({ ctx, input }) => {
      const current = await projectRules(ctx);
      const revisionId = input.revisionId ?? current.revisionId;
      const flags = { strict_mode: input.strict_mode, expand_rewrites: input.expand_rewrites };
      await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, ctx.projectId, revisionId, featureFlagsPatch(current.services, flags));
      const saved = await projectRules(ctx);
      return {
        opl: saved.opl,
        revisionId: saved.revisionId,
        namespaces: overviewOf(saved.namespaces),
        problems: saved.errors.map((e) => editorProblem(saved.opl, e)),
        featureFlags: flagsOf(saved),
      };
    }),
});
