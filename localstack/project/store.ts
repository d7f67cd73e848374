import { randomUUID } from 'node:crypto';
import { eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm';
import {
  consoleActiveProject,
  projectMembers,
  projectRevisions,
  projects,
  workspaceMembers,
  type ProjectRevisionRow,
  type ProjectRow,
} from './schema';
import { prepared } from '../db/prepared';
import type { Queryable } from '../kernel/queryable';
import { uniqueSlug } from './slug';
import { deleteTenantData } from './tenant-data';
import { assertRevisionKeepsIdentities } from '../identity-schema/guard';
import { authorizationChanged } from '../kernel/authz-cache';

export type { ProjectRow } from './schema';

export type JsonObject = Record<string, unknown>;

/** A revision; `fields` holds every normalized field except name and the read-only ones, `services` the full form's. */
export type RevisionRow = Omit<ProjectRevisionRow, 'fields' | 'services'> & { fields: JsonObject; services: JsonObject };

/** A project with the name of its current revision (what lists show). */
export type ProjectListRow = ProjectRow & { name: string };

export interface RevisionInput {
  name: string;
  fields: JsonObject;
  services: JsonObject;
}

export { findProject, findProjectByRef } from '../kernel/records';

const asRevision = (row: ProjectRevisionRow): RevisionRow => ({
  ...row,
  fields: row.fields as JsonObject,
  services: row.services as JsonObject,
});

export async function findRevision(q: Queryable, id: string): Promise<RevisionRow> {
  const [row] = await q.orm.select().from(projectRevisions).where(eq(projectRevisions.id, id));
  if (!row) throw new Error(`project revision ${id} is missing`);
  return asRevision(row);
}

/** Writes a new revision by `author` (the identity the write is recorded for) and makes it the project's current one. */
export async function addRevision(q: Queryable, projectId: string, input: RevisionInput, author: string | null): Promise<RevisionRow> {
  // Whatever path writes a revision (setProject, patchProject, the normalized patch), identities stay valid.
  await assertRevisionKeepsIdentities(q, projectId, input.services);
  const now = new Date();
  const [row] = await q.orm
    .insert(projectRevisions)
    .values({ id: randomUUID(), project_id: projectId, ...input, created_at: now, created_by: author })
    .returning();
  await q.orm.update(projects).set({ current_revision_id: row!.id, updated_at: now }).where(eq(projects.id, projectId));
  authorizationChanged();
  return asRevision(row!);
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
  const now = new Date();
  const [project] = await q.orm
    .insert(projects)
    .values({
      id,
      slug: await uniqueSlug(q),
      state: 'running',
      environment: input.environment,
      home_region: input.homeRegion,
      workspace_id: input.workspaceId,
      current_revision_id: revisionId,
      created_at: now,
      updated_at: now,
    })
    .returning();
  await q.orm.insert(projectRevisions).values({
    id: revisionId,
    project_id: id,
    name: input.name,
    fields: input.fields,
    services: input.services,
    created_at: now,
    created_by: input.creatorId,
  });
  if (!input.workspaceId) {
    await q.orm.insert(projectMembers).values({ project_id: id, identity_id: input.creatorId, role: 'owner', created_at: now });
  }
  return project!;
}

export async function setEnvironment(q: Queryable, id: string, environment: string): Promise<void> {
  await q.orm.update(projects).set({ environment, updated_at: new Date() }).where(eq(projects.id, id));
  authorizationChanged();
}

export async function moveToWorkspace(q: Queryable, id: string, workspaceId: string): Promise<void> {
  await q.orm.update(projects).set({ workspace_id: workspaceId, updated_at: new Date() }).where(eq(projects.id, id));
  authorizationChanged();
}

/** Purges the project; revisions, members, keys and active-project selections go with it (ON DELETE CASCADE). */
/** Purges a project with its tenant's identities, sessions, flows and mail (its nid is its id). */
export async function deleteProject(q: Queryable, id: string): Promise<void> {
  await q.orm.delete(consoleActiveProject).where(eq(consoleActiveProject.project_id, id));
  await deleteTenantData(q, id);
  await q.orm.delete(projects).where(eq(projects.id, id));
  authorizationChanged();
}

function listSelect(q: Queryable) {
  return q.orm
    .select({ ...getTableColumns(projects), name: projectRevisions.name })
    .from(projects)
    .innerJoin(projectRevisions, eq(projectRevisions.id, projects.current_revision_id));
}

/** The identity reads the project: through its workspace or as a direct project member. */
export function readableBy(identityId: string | ReturnType<typeof sql.placeholder>): SQL {
  return or(
    sql`EXISTS (SELECT 1 FROM ${projectMembers} WHERE ${projectMembers.project_id} = ${projects.id} AND ${projectMembers.identity_id} = ${identityId})`,
    sql`EXISTS (SELECT 1 FROM ${workspaceMembers} WHERE ${workspaceMembers.workspace_id} = ${projects.workspace_id} AND ${workspaceMembers.identity_id} = ${identityId})`,
  )!;
}

/** Every project the identity can read. */
export async function listReadableProjects(q: Queryable, identityId: string): Promise<ProjectListRow[]> {
  const statement = prepared(q, 'readable-projects', () =>
    listSelect(q)
      .where(readableBy(sql.placeholder('identityId')))
      .orderBy(projects.created_at, projects.id)
      .prepare('readable_projects'),
  );
  return statement.execute({ identityId });
}

export async function listWorkspaceProjects(q: Queryable, workspaceId: string): Promise<ProjectListRow[]> {
  return listSelect(q).where(eq(projects.workspace_id, workspaceId)).orderBy(projects.created_at, projects.id);
}

export async function findProjectWithName(q: Queryable, id: string): Promise<ProjectListRow | undefined> {
  const [row] = await listSelect(q).where(eq(projects.id, id));
  return row;
}
