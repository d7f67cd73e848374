import type { CreateProjectBody, JsonPatch, SetProject, UpdateWorkspaceBody } from '@ory/client';
import { hookCallLogSchema } from '../../shared/schemas/actions';
import { auditEventDetailSchema, auditEventsDetailPageSchema, auditEventsPageSchema } from '../../shared/schemas/audit-log';
import type { Logger } from 'pino';
import { z } from 'zod';
import { assertRequiredParams } from '../../shared/domain/required-param';
import {
  activeProjectSchema,
  normalizedProjectSchema,
  projectMemberSchema,
  projectMetadataSchema,
  projectSchema,
  projectUpdateOutput,
  type NormalizedProject,
  type ProjectMember,
  type ProjectMetadata,
  type Project,
} from '../../shared/schemas/project';
import { emailTemplateDataSchema, messageSchema, type CourierMessage, type EmailTemplateData } from '../../shared/schemas/messaging';
import { projectAccessResponseSchema, workspaceAccessResponseSchema } from '../../shared/schemas/permissions';
import {
  listWorkspaceProjectsResponseSchema,
  listWorkspacesResponseSchema,
  workspaceSchema,
  type ListWorkspacesResponse,
  type Workspace,
  type WorkspaceProjectsPage,
} from '../../shared/schemas/workspace';
import type { Environment } from '../../shared/schemas/common';
import { createControlPlaneSdk } from './control-plane-sdk';
import { createUpstreamHttp, path, type HttpMethod, type UpstreamHttp } from './http';
import { createMetricsCalls } from './metrics';
import { createProjectHistoryCalls } from './project-history';
import { createEventStreamCalls } from './event-streams';
import { createIdentitySchemaCalls } from './identity-schemas';
import { createTeamCalls } from './team';
import { createCustomDomainCalls } from './custom-domains';
import { createBrandingCalls } from './branding';
import { createOrganizationCalls } from './organizations';

/** Who is calling: the browser's cookie (only session cookies are forwarded) and the request id. */
export interface CallContext {
  cookie?: string | undefined;
  requestId?: string | undefined;
  log?: Logger | undefined;
  /** The request's deadline, when the caller has one; each call otherwise gets its own timeout. */
  signal?: AbortSignal | undefined;
  /** Told the slug of each project read for the caller (it primes the slug cache of the data plane). */
  onProject?: ((project: { id: string; slug: string }) => void) | undefined;
  /**
   * The `Idempotency-Key` of an upstream write, when the console's caller sent one with a mutation: derived from
   * it, the write's method and URL and how many such writes the procedure made before, so the same mutation sent
   * again sends the same keys (`trpc/init.ts`).
   */
  idempotencyKey?: ((method: string, url: string) => string) | undefined;
}

/** Passes a project read for `c` on, telling `c.onProject` its slug first. */
const noted =
  (c: CallContext) =>
  <P extends { id: string; slug: string }>(project: P): P => {
    c.onProject?.(project);
    return project;
  };

export type { CreateProjectBody };
/** One RFC 6902 operation (Ory's jsonPatch). */
export type JsonPatchOperation = JsonPatch;

const projectListSchema = z.array(projectMetadataSchema);
const metaSchemaSchema = z.record(z.string(), z.unknown());
const memberListSchema = z.array(projectMemberSchema);
const workspaceMemberListSchema = z.array(z.looseObject({ id: z.string() }));

/** Whose audit log: a project's or a workspace's. */
type AuditScope = { kind: 'project'; projectId: string } | { kind: 'workspace'; workspaceId: string };
const auditLogPath = (scope: AuditScope) => (scope.kind === 'project' ? path`/projects/${scope.projectId}/audit-log` : path`/workspaces/${scope.workspaceId}/audit-log`);

/**
 * Typed client for the control plane (spec §7 Projects and Workspaces): calls `@ory/client` has a method
 * for go through ProjectApi/WorkspaceApi, except listProjects (kept for throughput, see below); the rest
 * (normalized projects, environment, access, the active project, adding a project to a workspace,
 * workspace members) has no SDK method and goes through our own small HTTP client (docs/design.md §4).
 */
export function createBackofficeClient(options: { baseUrl: string; timeoutMs: number }) {
  const http: UpstreamHttp = createUpstreamHttp({ name: 'backoffice', ...options });
  const sdk = createControlPlaneSdk(options);
  const { projects, workspaces, send } = sdk;
  const call = <T>(c: CallContext, method: HttpMethod, p: string, schema?: z.ZodType<T>, body?: unknown, query?: Record<string, string | number | undefined>) =>
    http.request<T>({ method, path: p, body, query, cookie: c.cookie, requestId: c.requestId, log: c.log, idempotencyKey: c.idempotencyKey }, schema);
  /** A permission check: a read, though sent as POST. */
  const check = <T>(c: CallContext, p: string, schema: z.ZodType<T>, body: unknown) =>
    http.request<T>({ method: 'POST', path: p, body, cookie: c.cookie, requestId: c.requestId, log: c.log, readOnly: true }, schema);

  return {
    /** Closing it also drops the SDK's kept-alive connections. */
    http: {
      ...http,
      close(): void {
        http.close();
        sdk.close();
      },
    } satisfies UpstreamHttp,
    sdk,
    /** Members, invites, API keys and quotas of projects and workspaces. */
    team: createTeamCalls(call, sdk),
    /** Managed identity schemas, presets, validation and the default schema of a project. */
    identitySchemas: createIdentitySchemaCalls(call, sdk),
    /** Custom domains of a project. */
    customDomains: createCustomDomainCalls(call),
    /** Branding themes of a project's hosted pages. */
    branding: createBrandingCalls(call),
    /** Organizations of a project and their onboarding portal links. */
    organizations: createOrganizationCalls(sdk),
    /** Project metrics, counted from the project's events. */
    metrics: createMetricsCalls(call),
    /** Event streams of a project, their delivery log, replay and test send. */
    eventStreams: createEventStreamCalls(call, sdk),
    /** The log of a project's identity web hook calls (the local stack's own call). */
    hookCalls: (c: CallContext, projectId: string, pageToken?: string) =>
      call(c, 'GET', path`/projects/${projectId}/identity-hooks/calls`, hookCallLogSchema, undefined, { page_size: 25, page_token: pageToken }),
    /** The audit log of a workspace or a project, one page with the given filters (the local stack's own call). */
    auditLog: (c: CallContext, scope: AuditScope, query: Record<string, string | undefined>) => call(c, 'GET', auditLogPath(scope), auditEventsPageSchema, undefined, { page_size: 50, ...query }),
    /** The same, each event with its before and after, in the largest pages the log gives (for an export). */
    auditLogWithChanges: (c: CallContext, scope: AuditScope, query: Record<string, string | undefined>) =>
      call(c, 'GET', auditLogPath(scope), auditEventsDetailPageSchema, undefined, { page_size: 100, ...query, with_changes: 'true' }),
    auditEvent: (c: CallContext, scope: AuditScope, eventId: string) => call(c, 'GET', `${auditLogPath(scope)}${path`/${eventId}`}`, auditEventDetailSchema),
    /** The history of a project's configuration: revisions, their changes, restoring one. */
    projectHistory: createProjectHistoryCalls(call),
    // ---- projects ----
    /**
     * ProjectApi.listProjects exists, but this hot call (every page load) stays on our own client: measured
     * with bench/control-plane-client.ts, the SDK path kept only ~87% of its throughput (see README).
     */
    listProjects: (c: CallContext): Promise<ProjectMetadata[]> => call(c, 'GET', '/projects', projectListSchema),
    createProject(c: CallContext, body: CreateProjectBody): Promise<Project> {
      assertRequiredParams('createProject', { createProjectBody: body });
      return send(c, 'createProject', projectSchema, (o) => projects.createProject({ createProjectBody: body }, o)).then(noted(c));
    },
    getProject(c: CallContext, projectId: string): Promise<Project> {
      assertRequiredParams('getProject', { projectId });
      return send(c, 'getProject', projectSchema, (o) => projects.getProject({ projectId }, o)).then(noted(c));
    },
    purgeProject(c: CallContext, projectId: string): Promise<void> {
      assertRequiredParams('purgeProject', { projectId });
      return send(c, 'purgeProject', undefined, (o) => projects.purgeProject({ projectId }, o));
    },
    createNormalizedProject(c: CallContext, body: CreateProjectBody): Promise<NormalizedProject> {
      assertRequiredParams('createNormalizedProject', { createNormalizedProjectBody: body });
      return call(c, 'POST', '/normalized/projects', normalizedProjectSchema, body).then(noted(c));
    },
    getNormalizedProject(c: CallContext, projectId: string): Promise<NormalizedProject> {
      assertRequiredParams('getNormalizedProject', { projectId });
      return call(c, 'GET', path`/normalized/projects/${projectId}`, normalizedProjectSchema).then(noted(c));
    },
    patchNormalizedProjectRevision(c: CallContext, projectId: string, revisionId: string, jsonPatch: JsonPatchOperation[]): Promise<NormalizedProject> {
      assertRequiredParams('patchProjectRevision', { projectId, revisionId, jsonPatch });
      return call(c, 'PATCH', path`/normalized/projects/${projectId}/revision/${revisionId}`, normalizedProjectSchema, jsonPatch);
    },
    /** PUT /projects/{id}: the whole settable configuration; what it leaves out is reset. */
    setProject(c: CallContext, projectId: string, setProject: SetProject): Promise<z.infer<typeof projectUpdateOutput>> {
      assertRequiredParams('setProject', { projectId, setProject });
      return send(c, 'setProject', projectUpdateOutput, (o) => projects.setProject({ projectId, setProject }, o));
    },
    /** PATCH /projects/{id}: a JSON patch on the current configuration. */
    patchProject(c: CallContext, projectId: string, jsonPatch: JsonPatchOperation[]): Promise<z.infer<typeof projectUpdateOutput>> {
      assertRequiredParams('patchProject', { projectId, jsonPatch });
      return send(c, 'patchProject', projectUpdateOutput, (o) => projects.patchProject({ projectId, jsonPatch }, o));
    },
    /** PUT /normalized/projects/{id}: a new revision made of the given name and flat fields. */
    replaceNormalizedProject(c: CallContext, projectId: string, revision: Record<string, unknown>): Promise<NormalizedProject> {
      assertRequiredParams('updateNormalizedProject', { projectId, normalizedProjectRevision: revision });
      return call(c, 'PUT', path`/normalized/projects/${projectId}`, normalizedProjectSchema, revision).then(noted(c));
    },
    /** GET /.well-known/identity-meta-schema: the JSON schema every identity schema is checked against. */
    identityMetaSchema: (c: CallContext): Promise<Record<string, unknown>> => call(c, 'GET', '/.well-known/identity-meta-schema', metaSchemaSchema),
    /** PATCH /projects/{id}/revision/{revision}: a JSON patch on the revision the edit read (409 when stale). */
    patchProjectWithRevision(c: CallContext, projectId: string, revisionId: string, jsonPatch: JsonPatchOperation[]): Promise<unknown> {
      assertRequiredParams('patchProjectWithRevision', { projectId, revisionId, jsonPatch });
      return send(c, 'patchProjectWithRevision', undefined, (o) => projects.patchProjectWithRevision({ projectId, revisionId, jsonPatch }, o));
    },
    /** GET /.well-known/project-defaults/email-templates/{template}/{variant} (orphan emailTemplateData). */
    getEmailTemplateDefault(c: CallContext, template: string, variant: string): Promise<EmailTemplateData> {
      assertRequiredParams('getEmailTemplateDefault', { template, variant });
      return call(c, 'GET', path`/.well-known/project-defaults/email-templates/${template}/${variant}`, emailTemplateDataSchema);
    },
    /** POST /projects/{id}/courier/test-messages: one message of a test-event kind, queued on the project's courier. */
    sendTestMessage(c: CallContext, projectId: string, body: { kind: string; recipient: string; channel: string }): Promise<CourierMessage> {
      assertRequiredParams('sendTestMessage', { projectId });
      return call(c, 'POST', path`/projects/${projectId}/courier/test-messages`, messageSchema, body);
    },
    setProjectEnvironment(c: CallContext, projectId: string, environment: Environment): Promise<unknown> {
      assertRequiredParams('setProjectEnvironment', { projectId, environment });
      return call(c, 'PUT', path`/projects/${projectId}/environment`, undefined, { environment });
    },
    projectAccess(c: CallContext, projectId: string, permissions: string[]): Promise<Record<string, boolean>> {
      assertRequiredParams('getProjectPermissions', { projectId });
      const body = permissions.map((permission) => ({ permission }));
      return check(c, path`/projects/${projectId}/access`, projectAccessResponseSchema, body);
    },
    getActiveProject: (c: CallContext): Promise<{ project_id?: string | null | undefined }> =>
      call(c, 'GET', '/console/active/project', activeProjectSchema),
    async setActiveProject(c: CallContext, projectId: string): Promise<void> {
      assertRequiredParams('setActiveProjectInConsole', { projectId });
      // setActiveProjectInConsole answers 204 without a body.
      await call(c, 'PUT', '/console/active/project', undefined, { project_id: projectId });
    },
    listProjectMembers(c: CallContext, project: string): Promise<ProjectMember[]> {
      assertRequiredParams('getProjectMembers', { project });
      return send(c, 'getProjectMembers', memberListSchema, (o) => projects.getProjectMembers({ project }, o));
    },
    // ---- workspaces ----
    listWorkspaces(c: CallContext, page: { pageSize?: number | undefined; pageToken?: string | undefined } = {}): Promise<ListWorkspacesResponse> {
      const params = { ...(page.pageSize !== undefined ? { pageSize: page.pageSize } : {}), ...(page.pageToken !== undefined ? { pageToken: page.pageToken } : {}) };
      return send(c, 'listWorkspaces', listWorkspacesResponseSchema, (o) => workspaces.listWorkspaces(params, o));
    },
    createWorkspace(c: CallContext, name: string): Promise<Workspace> {
      assertRequiredParams('createWorkspace', { name });
      return send(c, 'createWorkspace', workspaceSchema, (o) => workspaces.createWorkspace({ createWorkspaceBody: { name } }, o));
    },
    getWorkspace(c: CallContext, workspace: string): Promise<Workspace> {
      assertRequiredParams('getWorkspace', { workspace });
      return send(c, 'getWorkspace', workspaceSchema, (o) => workspaces.getWorkspace({ workspace }, o));
    },
    updateWorkspace(c: CallContext, workspace: string, body: UpdateWorkspaceBody): Promise<Workspace> {
      assertRequiredParams('updateWorkspace', { workspace });
      return send(c, 'updateWorkspace', workspaceSchema, (o) => workspaces.updateWorkspace({ workspace, updateWorkspaceBody: body }, o));
    },
    addProjectToWorkspace(c: CallContext, workspace: string, project: string, body: Record<string, unknown>): Promise<ProjectMetadata> {
      assertRequiredParams('addProjectToWorkspace', { workspace, project });
      return call(c, 'POST', path`/workspaces/${workspace}/add/${project}`, projectMetadataSchema, body);
    },
    listWorkspaceProjects(c: CallContext, workspace: string): Promise<WorkspaceProjectsPage> {
      assertRequiredParams('listWorkspaceProjects', { workspace });
      return send(c, 'listWorkspaceProjects', listWorkspaceProjectsResponseSchema, (o) => workspaces.listWorkspaceProjects({ workspace }, o));
    },
    listWorkspaceMembers(c: CallContext, workspace: string): Promise<unknown[]> {
      assertRequiredParams('listWorkspaceMembers', { workspace });
      return call(c, 'GET', path`/workspaces/${workspace}/members`, workspaceMemberListSchema);
    },
    async workspaceAccess(c: CallContext, workspace: string, permissions: string[]): Promise<Record<string, boolean>> {
      assertRequiredParams('getWorkspacePermissions', { workspace });
      const body = permissions.map((permission) => ({ permission }));
      const answer = await check(c, path`/workspaces/${workspace}/access`, workspaceAccessResponseSchema, body);
      return answer.permissions;
    },
  };
}

export type BackofficeClient = ReturnType<typeof createBackofficeClient>;
