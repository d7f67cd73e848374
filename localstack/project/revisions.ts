import { conflict } from '../kernel/errors';
import { restoreServices } from './smtp-secret';
import type { JsonObject, ProjectRow, RevisionInput, RevisionRow } from './store';

/** Revision fields the server owns; a body may carry them (copied from a GET) but they are not stored. */
export const READ_ONLY_REVISION_FIELDS = ['id', 'project_id', 'name', 'created_at', 'updated_at'] as const;

export function storableFields(body: JsonObject, alsoDrop: readonly string[] = []): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    if ((READ_ONLY_REVISION_FIELDS as readonly string[]).includes(key) || alsoDrop.includes(key)) continue;
    if (value === undefined) continue;
    out[key] = value;
  }
  return out;
}

export const DEFAULT_SERVICES: JsonObject = {
  identity: { config: {} },
  oauth2: { config: {} },
  permission: { config: {} },
};

interface Cors {
  enabled?: boolean | undefined;
  origins?: string[] | undefined;
}

/** The full configuration form, mapped onto a revision: cors lives in the serve_*_cors_* fields. */
export interface ProjectDocumentInput {
  name: string;
  services: JsonObject;
  cors_admin?: Cors | undefined;
  cors_public?: Cors | undefined;
}

export function revisionFromDocument(current: RevisionRow, doc: ProjectDocumentInput): RevisionInput {
  const fields: JsonObject = { ...current.fields };
  for (const [side, cors] of [
    ['admin', doc.cors_admin],
    ['public', doc.cors_public],
  ] as const) {
    if (!cors) continue;
    fields[`serve_${side}_cors_enabled`] = cors.enabled ?? false;
    fields[`serve_${side}_cors_allowed_origins`] = cors.origins ?? [];
  }
  return { name: doc.name, fields, services: restoreServices({ ...DEFAULT_SERVICES, ...doc.services }, current.services) };
}

/** A write based on an older revision than the current one is refused. */
export function assertCurrentRevision(project: ProjectRow, revisionId: string): void {
  if (project.current_revision_id !== revisionId) {
    throw conflict(
      `Revision ${revisionId} is not the current revision of project ${project.id} ` +
        `(current: ${project.current_revision_id}). Load the project again and retry.`,
    );
  }
}
