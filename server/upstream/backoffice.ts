import type { Logger } from 'pino';
import { z } from 'zod';
import { assertRequiredParams } from '../../shared/domain/required-param';
import {
  activeProjectSchema,
  normalizedProjectSchema,
  projectMemberSchema,
  projectMetadataSchema,
  projectSchema,
  type NormalizedProject,
  type ProjectMember,
  type ProjectMetadata,
  type Project,
} from '../../shared/schemas/project';
import { projectAccessResponseSchema, workspaceAccessResponseSchema } from '../../shared/schemas/permissions';
import {
  listWorkspaceProjectsResponseSchema,
  listWorkspacesResponseSchema,
  workspaceSchema,
  type ListWorkspacesResponse,
  type Workspace,
} from '../../shared/schemas/workspace';
import type { Environment } from '../../shared/schemas/common';
import { createUpstreamHttp, path, type HttpMethod, type UpstreamHttp } from './http';

/** Who is calling: the browser's cookie (only session cookies are forwarded) and the request id. */
export interface CallContext {
  cookie?: string | undefined;
  requestId?: string | undefined;
  log?: Logger | undefined;
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export interface CreateProjectBody {
  name: string;
  environment: Environment;
  home_region?: string;
  workspace_id?: string;
}

export interface WorkspaceProjectsPage {
  projects: ProjectMetadata[];
  has_next_page: boolean;
  next_page?: string | null | undefined;
}

const projectListSchema = z.array(projectMetadataSchema);
const memberListSchema = z.array(projectMemberSchema);
const workspaceMemberListSchema = z.array(z.looseObject({ id: z.string() }));

/** Typed client for the control plane (spec §7 Projects and Workspaces). */
export function createBackofficeClient(options: { baseUrl: string; timeoutMs: number }) {
  const http: UpstreamHttp = createUpstreamHttp({ name: 'backoffice', ...options });
  const call = <T>(c: CallContext, method: HttpMethod, p: string, schema?: z.ZodType<T>, body?: unknown, query?: Record<string, string | number | undefined>) =>
    http.request<T>({ method, path: p, body, query, cookie: c.cookie, requestId: c.requestId, log: c.log }, schema);

  return {
    http,
    // ---- projects ----
    listProjects: (c: CallContext): Promise<ProjectMetadata[]> => call(c, 'GET', '/projects', projectListSchema),
    createProject(c: CallContext, body: CreateProjectBody): Promise<Project> {
      assertRequiredParams('createProject', { createProjectBody: body });
      return call(c, 'POST', '/projects', projectSchema, body);
    },
    getProject(c: CallContext, projectId: string): Promise<Project> {
      assertRequiredParams('getProject', { projectId });
      return call(c, 'GET', path`/projects/${projectId}`, projectSchema);
    },
    purgeProject(c: CallContext, projectId: string): Promise<void> {
      assertRequiredParams('purgeProject', { projectId });
      return call(c, 'DELETE', path`/projects/${projectId}`);
    },
    createNormalizedProject(c: CallContext, body: CreateProjectBody): Promise<NormalizedProject> {
      assertRequiredParams('createNormalizedProject', { createNormalizedProjectBody: body });
      return call(c, 'POST', '/normalized/projects', normalizedProjectSchema, body);
    },
    getNormalizedProject(c: CallContext, projectId: string): Promise<NormalizedProject> {
      assertRequiredParams('getNormalizedProject', { projectId });
      return call(c, 'GET', path`/normalized/projects/${projectId}`, normalizedProjectSchema);
    },
    patchNormalizedProjectRevision(c: CallContext, projectId: string, revisionId: string, jsonPatch: JsonPatchOperation[]): Promise<NormalizedProject> {
      assertRequiredParams('patchProjectRevision', { projectId, revisionId, jsonPatch });
      return call(c, 'PATCH', path`/normalized/projects/${projectId}/revision/${revisionId}`, normalizedProjectSchema, jsonPatch);
    },
    setProjectEnvironment(c: CallContext, projectId: string, environment: Environment): Promise<unknown> {
      assertRequiredParams('setProjectEnvironment', { projectId, environment });
      return call(c, 'PUT', path`/projects/${projectId}/environment`, undefined, { environment });
    },
    projectAccess(c: CallContext, projectId: string, permissions: string[]): Promise<Record<string, boolean>> {
      assertRequiredParams('getProjectPermissions', { projectId });
      const body = permissions.map((permission) => ({ permission }));
      return call(c, 'POST', path`/projects/${projectId}/access`, projectAccessResponseSchema, body);
    },
    getActiveProject: (c: CallContext): Promise<{ project_id?: string | null | undefined }> =>
      call(c, 'GET', '/console/active/project', activeProjectSchema),
    async setActiveProject(c: CallContext, projectId: string): Promise<{ project_id: string }> {
      assertRequiredParams('setActiveProjectInConsole', { projectId });
      // setActiveProjectInConsole answers 204 without a body.
      await call(c, 'PUT', '/console/active/project', undefined, { project_id: projectId });
      return { project_id: projectId };
    },
    listProjectMembers(c: CallContext, project: string): Promise<ProjectMember[]> {
      assertRequiredParams('getProjectMembers', { project });
      return call(c, 'GET', path`/projects/${project}/members`, memberListSchema);
    },
    // ---- workspaces ----
    listWorkspaces(c: CallContext, page: { pageSize?: number | undefined; pageToken?: string | undefined } = {}): Promise<ListWorkspacesResponse> {
      return call(c, 'GET', '/workspaces', listWorkspacesResponseSchema, undefined, { page_size: page.pageSize, page_token: page.pageToken });
    },
    createWorkspace(c: CallContext, name: string): Promise<Workspace> {
      assertRequiredParams('createWorkspace', { name });
      return call(c, 'POST', '/workspaces', workspaceSchema, { name });
    },
    getWorkspace(c: CallContext, workspace: string): Promise<Workspace> {
      assertRequiredParams('getWorkspace', { workspace });
      return call(c, 'GET', path`/workspaces/${workspace}`, workspaceSchema);
    },
    updateWorkspace(c: CallContext, workspace: string, body: { name: string; access_policy?: string }): Promise<Workspace> {
      assertRequiredParams('updateWorkspace', { workspace });
      return call(c, 'PUT', path`/workspaces/${workspace}`, workspaceSchema, body);
    },
    addProjectToWorkspace(c: CallContext, workspace: string, project: string, body: Record<string, unknown>): Promise<ProjectMetadata> {
      assertRequiredParams('addProjectToWorkspace', { workspace, project });
      return call(c, 'POST', path`/workspaces/${workspace}/add/${project}`, projectMetadataSchema, body);
    },
    listWorkspaceProjects(c: CallContext, workspace: string): Promise<WorkspaceProjectsPage> {
      assertRequiredParams('listWorkspaceProjects', { workspace });
      return call(c, 'GET', path`/workspaces/${workspace}/projects`, listWorkspaceProjectsResponseSchema);
    },
    listWorkspaceMembers(c: CallContext, workspace: string): Promise<unknown[]> {
      assertRequiredParams('listWorkspaceMembers', { workspace });
      return call(c, 'GET', path`/workspaces/${workspace}/members`, workspaceMemberListSchema);
    },
    async workspaceAccess(c: CallContext, workspace: string, permissions: string[]): Promise<Record<string, boolean>> {
      assertRequiredParams('getWorkspacePermissions', { workspace });
      const body = permissions.map((permission) => ({ permission }));
      const answer = await call(c, 'POST', path`/workspaces/${workspace}/access`, workspaceAccessResponseSchema, body);
      return answer.permissions;
    },
  };
}

export type BackofficeClient = ReturnType<typeof createBackofficeClient>;
