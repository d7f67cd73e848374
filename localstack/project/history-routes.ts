import type { FastifyInstance } from 'fastify';
import { and, desc, eq, lt, or } from 'drizzle-orm';
import {
  projectRevisionDetailSchema,
  projectRevisionsPageSchema,
  restoreRevisionBody,
  revisionsQuery,
} from '../../shared/schemas/project-history';
import { actorId } from '../kernel/caller';
import { badRequest, notFound } from '../kernel/errors';
import type { Queryable } from '../kernel/queryable';
import { route, type RouteContext } from '../kernel/route';
import { identities } from '../identity/schema';
import { projectIdParams, projectRevisionParams } from './bodies';
import { assertCurrentRevision } from './revisions';
import { projectRevisions } from './schema';
import { redactServices } from './smtp-secret';
import { addRevision, findProject, findRevision, type ProjectRow, type RevisionRow } from './store';
import { projectDocument, projectView } from './views';

const PAGE_SIZE = 25;

const summaryColumns = {
  id: projectRevisions.id,
  name: projectRevisions.name,
  created_at: projectRevisions.created_at,
  created_by: projectRevisions.created_by,
  traits: identities.traits,
};

type SummaryRow = { id: string; name: string; created_at: Date; created_by: string | null; traits: unknown };

function summaryView(project: ProjectRow, row: SummaryRow) {
  const email = (row.traits as { email?: unknown } | null)?.email;
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
    author_email: typeof email === 'string' ? email : null,
    current: row.id === project.current_revision_id,
  };
}

/** A revision's configuration as a project read shows it: the SMTP password and delivery secrets redacted. */
const documentOf = (rev: RevisionRow) => ({ ...projectDocument(rev), services: redactServices(rev.services) });

async function summaryOf(q: Queryable, project: ProjectRow, revisionId: string) {
  const [row] = await q.orm
    .select(summaryColumns)
    .from(projectRevisions)
    .leftJoin(identities, eq(identities.id, projectRevisions.created_by))
    .where(and(eq(projectRevisions.project_id, project.id), eq(projectRevisions.id, revisionId)));
  if (!row) throw notFound(`Project ${project.id} has no revision ${revisionId}.`);
  return row;
}

/**
 * The history of a project's configuration (local to the stack; Ory Network publishes no such call): the
 * revisions newest first with their authors, one revision with the one before it, and restoring an old
 * revision as a new one, only onto the revision the caller saw as current.
 */
export function registerProjectHistoryRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/revisions',
    params: projectIdParams,
    query: revisionsQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: projectRevisionsPageSchema,
    handler: async ({ q, project, query }) => {
      const size = query.page_size ?? PAGE_SIZE;
      let after: SummaryRow | undefined;
      if (query.page_token) {
        if (!/^[0-9a-f-]{36}$/i.test(query.page_token)) throw badRequest('page_token is not a token this list gave: start from the first page.');
        after = await summaryOf(q, project, query.page_token.toLowerCase()).catch(() => {
          throw badRequest('page_token is not a token this list gave: start from the first page.');
        });
      }
      const rows = await q.orm
        .select(summaryColumns)
        .from(projectRevisions)
        .leftJoin(identities, eq(identities.id, projectRevisions.created_by))
        .where(
          and(
            eq(projectRevisions.project_id, project.id),
            after
              ? or(lt(projectRevisions.created_at, after.created_at), and(eq(projectRevisions.created_at, after.created_at), lt(projectRevisions.id, after.id)))
              : undefined,
          ),
        )
        .orderBy(desc(projectRevisions.created_at), desc(projectRevisions.id))
        .limit(size + 1);
      const page = rows.slice(0, size);
      return { revisions: page.map((r) => summaryView(project, r)), next_page_token: rows.length > size ? page.at(-1)!.id : '' };
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/revisions/:revision_id',
    params: projectRevisionParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: projectRevisionDetailSchema,
    handler: async ({ q, project, params }) => {
      const summary = await summaryOf(q, project, params.revision_id);
      const rev = await findRevision(q, summary.id);
      const [before] = await q.orm
        .select({ id: projectRevisions.id })
        .from(projectRevisions)
        .where(
          and(
            eq(projectRevisions.project_id, project.id),
            or(lt(projectRevisions.created_at, rev.created_at), and(eq(projectRevisions.created_at, rev.created_at), lt(projectRevisions.id, rev.id))),
          ),
        )
        .orderBy(desc(projectRevisions.created_at), desc(projectRevisions.id))
        .limit(1);
      const previous = before ? await findRevision(q, before.id) : null;
      return {
        revision: summaryView(project, summary),
        document: documentOf(rev),
        previous: previous ? { id: previous.id, document: documentOf(previous) } : null,
      };
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project_id/revisions/:revision_id/restore',
    params: projectRevisionParams,
    body: restoreRevisionBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, params, body, caller }) => {
      // Checked first: a change made since the caller looked is not silently undone.
      assertCurrentRevision(project, body.current_revision_id);
      const summary = await summaryOf(q, project, params.revision_id);
      if (summary.id === project.current_revision_id) throw badRequest('This revision is already the current configuration: there is nothing to restore.');
      const old = await findRevision(q, summary.id);
      const next = await addRevision(q, project.id, { name: old.name, fields: old.fields, services: old.services }, actorId(caller));
      return { project: projectView((await findProject(q, project.id))!, next), warnings: [] };
    },
  });
}
