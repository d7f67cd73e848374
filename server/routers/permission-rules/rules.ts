import { oplOfServices, permissionModeOf } from '../../../shared/permissions/config';
import type { EngineMode } from '../../../shared/permissions/engine';
import type { Namespace } from '../../../shared/permissions/model';
import { parseOpl, type ParsedOpl } from '../../../shared/permissions/opl';
import type { Context } from '../../trpc/context';

export interface ProjectRulesView {
  opl: string;
  revisionId: string;
  services: unknown;
  namespaces: Namespace[];
  errors: ParsedOpl['errors'];
  /** Keto's strict mode and rule expansion, as the project's permission config sets them. */
  mode: EngineMode;
}

/** The project's permission rules, read from its configuration on the control plane with the caller's cookie. */
export async function projectRules(ctx: { deps: Context['deps']; call: Context['call']; projectId: string }): Promise<ProjectRulesView> {
  const project = await ctx.deps.backoffice.getProject(ctx.call, ctx.projectId);
  const opl = oplOfServices(project.services) ?? '';
  const { namespaces, errors } = opl ? parseOpl(opl) : { namespaces: [], errors: [] };
  return { opl, revisionId: project.revision_id, services: project.services, namespaces, errors, mode: permissionModeOf(project.services) };
}
