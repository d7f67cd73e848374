import { workspaceFor } from './guard';
import { DEFAULT_SERVICES } from './revisions';
import { createProject, type NewProject, type ProjectRow } from './store/projects';
import type { Queryable } from './types';

export interface CreateProjectRequest {
  name: string;
  environment: NewProject['environment'];
  home_region?: string | undefined;
  workspace_id?: string | null | undefined;
}

/**
 * Creates a project for the caller, in both the full and the normalized form: a workspace, when named,
 * must be one the caller may write to; the caller owns a project created outside any workspace.
 */
export async function createProjectFor(
  q: Queryable,
  identityId: string,
  request: CreateProjectRequest,
  fields: NewProject['fields'],
): Promise<ProjectRow> {
  const workspaceId = request.workspace_id ?? null;
  if (workspaceId) await workspaceFor(q, identityId, workspaceId, 'write');
  return createProject(q, {
    name: request.name,
    environment: request.environment,
    homeRegion: request.home_region ?? 'eu-central',
    workspaceId,
    creatorId: identityId,
    fields,
    services: DEFAULT_SERVICES,
  });
}
