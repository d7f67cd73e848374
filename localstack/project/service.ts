import { actorId, type Caller } from '../kernel/caller';
import { workspaceFor } from '../kernel/permissions';
import { assertProductionRoom } from '../billing/quota';
import { DEFAULT_SERVICES } from './revisions';
import { createProject, type NewProject, type ProjectRow } from './store';
import type { Queryable } from '../kernel/queryable';

/** Stands for the project being created when counting: no project has this id. */
const NO_PROJECT_YET = '00000000-0000-4000-8000-000000000000';

export interface CreateProjectRequest {
  name: string;
  environment: NewProject['environment'];
  home_region?: string | undefined;
  workspace_id?: string | null | undefined;
}

/**
 * Creates a project for the caller, in both the full and the normalized form: a workspace, when named,
 * must be one the caller may write to; the caller owns a project created outside any workspace. A
 * workspace key creates projects in its own workspace (when none is named) and nowhere else.
 */
export async function createProjectFor(
  q: Queryable,
  caller: Caller,
  request: CreateProjectRequest,
  fields: NewProject['fields'],
  now: Date,
): Promise<ProjectRow> {
  const workspaceId = request.workspace_id?.toLowerCase() ?? (caller.kind === 'workspace-key' ? caller.workspaceId : null);
  if (workspaceId) await workspaceFor(q, caller, workspaceId, 'write');
  // A new project has no subscription of its own: its workspace's plan (or Develop) decides.
  if (request.environment === 'prod') await assertProductionRoom(q, { id: NO_PROJECT_YET, workspace_id: workspaceId }, now);
  return createProject(q, {
    name: request.name,
    environment: request.environment,
    homeRegion: request.home_region ?? 'eu-central',
    workspaceId,
    creatorId: actorId(caller),
    fields,
    services: DEFAULT_SERVICES,
  });
}
