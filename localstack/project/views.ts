import type { JsonObject, ProjectListRow, ProjectRow, RevisionRow } from './store';
import type { WorkspaceRow } from '../kernel/tables';
import { redactFields, redactServices } from './smtp-secret';

/** The wire shapes @ory/client reads: Project, ProjectMetadata, NormalizedProject, Workspace. */

export const projectHosts = (slug: string): string[] => [`${slug}.projects.oryapis.com`];

/** A workspace; with its subscription (id and plan) when it has one, none meaning the Develop plan. */
export function workspaceView(row: WorkspaceRow, subscription?: { id: string; plan: string } | null) {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(row.access_policy ? { access_policy: row.access_policy } : {}),
    subscription_id: subscription?.id ?? null,
    subscription_plan: subscription?.plan ?? null,
  };
}

export function projectMetadataView(row: ProjectListRow) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    state: row.state,
    environment: row.environment,
    home_region: row.home_region,
    hosts: projectHosts(row.slug),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    subscription_id: row.subscription_id,
    subscription_plan: null,
    workspace_id: row.workspace_id,
  };
}

interface Cors {
  enabled: boolean;
  origins: string[];
}

function corsFrom(fields: JsonObject, side: 'admin' | 'public'): Cors {
  const enabled = fields[`serve_${side}_cors_enabled`];
  const origins = fields[`serve_${side}_cors_allowed_origins`];
  return {
    enabled: enabled === true,
    origins: Array.isArray(origins) ? origins.filter((o): o is string => typeof o === 'string') : [],
  };
}

/** The editable part of the full configuration form, derived from a revision. */
export function projectDocument(rev: RevisionRow) {
  return {
    name: rev.name,
    services: rev.services,
    cors_admin: corsFrom(rev.fields, 'admin'),
    cors_public: corsFrom(rev.fields, 'public'),
    organizations: [] as unknown[],
  };
}

export function projectView(row: ProjectRow, rev: RevisionRow) {
  return {
    id: row.id,
    slug: row.slug,
    revision_id: rev.id,
    state: row.state,
    environment: row.environment,
    home_region: row.home_region,
    workspace_id: row.workspace_id,
    ...projectDocument(rev),
    // What a read answers: the SMTP password never leaves the stack.
    services: redactServices(rev.services),
  };
}

export function revisionView(rev: RevisionRow) {
  const created = rev.created_at.toISOString();
  return {
    ...redactFields(rev.fields),
    id: rev.id,
    project_id: rev.project_id,
    name: rev.name,
    created_at: created,
    updated_at: created,
  };
}

export function normalizedProjectView(row: ProjectRow, rev: RevisionRow, workspace?: WorkspaceRow) {
  return {
    id: row.id,
    slug: row.slug,
    state: row.state,
    environment: row.environment,
    home_region: row.home_region,
    hosts: projectHosts(row.slug),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    workspace_id: row.workspace_id,
    ...(workspace ? { workspace: workspaceView(workspace) } : {}),
    subscription_id: row.subscription_id,
    subscription_plan: null,
    current_revision: revisionView(rev),
  };
}
