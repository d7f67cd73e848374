import { randomUUID } from 'node:crypto';
import type { Queryable } from '../types';
import { uniqueSlug } from './slug';
import { nowIso } from './time';

export type JsonObject = Record<string, unknown>;

export interface ProjectRow {
  id: string;
  slug: string;
  state: string;
  environment: string;
  home_region: string;
  workspace_id: string | null;
  subscription_id: string | null;
  current_revision_id: string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A project with the name of its current revision (what lists show). */
export interface ProjectListRow extends ProjectRow {
  name: string;
}

export interface RevisionRow {
  id: string;
  project_id: string;
  name: string;
  /** Every normalized revision field except name and the read-only ones, stored as given. */
  fields: JsonObject;
  /** The `services` object of the full configuration form. */
  services: JsonObject;
  created_at: Date | string;
}

export interface RevisionInput {
  name: string;
  fields: JsonObject;
  services: JsonObject;
}

const PROJECT_COLUMNS = `p.id, p.slug, p.state, p.environment, p.home_region, p.workspace_id, p.subscription_id,
  p.current_revision_id, p.created_at, p.updated_at`;

export async function findProject(q: Queryable, id: string): Promise<ProjectRow | undefined> {
  const rows = await q.query<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.id = $1`, [id]);
  return rows[0];
}

/** Locks the project row for the rest of the transaction (serialises concurrent revisions). */
export async function lockProject(q: Queryable, id: string): Promise<ProjectRow | undefined> {
  const rows = await q.query<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.id = $1 FOR UPDATE`, [
    id,
  ]);
  return rows[0];
}

export async function findRevision(q: Queryable, id: string): Promise<RevisionRow> {
  const rows = await q.query<RevisionRow>(
    'SELECT id, project_id, name, fields, services, created_at FROM project_revisions WHERE id = $1',
    [id],
  );
  if (!rows[0]) throw new Error(`project revision ${id} is missing`);
  return rows[0];
}

/** Writes a new revision and makes it the project's current one. */
export async function addRevision(q: Queryable, projectId: string, input: RevisionInput): Promise<RevisionRow> {
  const id = randomUUID();
  const now = nowIso();
  const rows = await q.query<RevisionRow>(
    `INSERT INTO project_revisions (id, project_id, name, fields, services, created_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6)
     RETURNING id, project_id, name, fields, services, created_at`,
    [id, projectId, input.name, JSON.stringify(input.fields), JSON.stringify(input.services), now],
  );
  await q.query('UPDATE projects SET current_revision_id = $2, updated_at = $3 WHERE id = $1', [projectId, id, now]);
  return rows[0]!;
}

export interface NewProject extends RevisionInput {
  environment: string;
  homeRegion: string;
  workspaceId: string | null;
  /** Becomes the project's owner when the project belongs to no workspace. */
  creatorId: string;
}

export async function createProject(q: Queryable, input: NewProject): Promise<ProjectRow> {
  const id = randomUUID();
  const revisionId = randomUUID();
  const now = nowIso();
  const slug = await uniqueSlug(q);
  await q.query(
    `INSERT INTO projects (id, slug, state, environment, home_region, workspace_id, current_revision_id,
       created_at, updated_at)
     VALUES ($1, $2, 'running', $3, $4, $5, $6, $7, $7)`,
    [id, slug, input.environment, input.homeRegion, input.workspaceId, revisionId, now],
  );
  await q.query(
    `INSERT INTO project_revisions (id, project_id, name, fields, services, created_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6)`,
    [revisionId, id, input.name, JSON.stringify(input.fields), JSON.stringify(input.services), now],
  );
  if (!input.workspaceId) {
    await q.query(
      `INSERT INTO project_members (project_id, identity_id, role, created_at) VALUES ($1, $2, 'owner', $3)`,
      [id, input.creatorId, now],
    );
  }
  return (await findProject(q, id))!;
}

export async function setEnvironment(q: Queryable, id: string, environment: string): Promise<void> {
  await q.query('UPDATE projects SET environment = $2, updated_at = $3 WHERE id = $1', [id, environment, nowIso()]);
}

export async function moveToWorkspace(q: Queryable, id: string, workspaceId: string): Promise<void> {
  await q.query('UPDATE projects SET workspace_id = $2, updated_at = $3 WHERE id = $1', [id, workspaceId, nowIso()]);
}

/** Purges the project; revisions, members and active-project selections go with it (ON DELETE CASCADE). */
export async function deleteProject(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM console_active_project WHERE project_id = $1', [id]);
  await q.query('DELETE FROM projects WHERE id = $1', [id]);
}

const LIST_SELECT = `SELECT ${PROJECT_COLUMNS}, r.name FROM projects p
  JOIN project_revisions r ON r.id = p.current_revision_id`;

/** Every project the identity can read: through its workspace or as a direct project member. */
export async function listReadableProjects(q: Queryable, identityId: string): Promise<ProjectListRow[]> {
  return q.query<ProjectListRow>(
    `${LIST_SELECT}
     WHERE EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = p.id AND m.identity_id = $1)
        OR EXISTS (SELECT 1 FROM workspace_members w WHERE w.workspace_id = p.workspace_id AND w.identity_id = $1)
     ORDER BY p.created_at, p.id`,
    [identityId],
  );
}

export async function listWorkspaceProjects(q: Queryable, workspaceId: string): Promise<ProjectListRow[]> {
  return q.query<ProjectListRow>(`${LIST_SELECT} WHERE p.workspace_id = $1 ORDER BY p.created_at, p.id`, [
    workspaceId,
  ]);
}

export async function findProjectWithName(q: Queryable, id: string): Promise<ProjectListRow | undefined> {
  const rows = await q.query<ProjectListRow>(`${LIST_SELECT} WHERE p.id = $1`, [id]);
  return rows[0];
}
