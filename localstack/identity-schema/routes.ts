import { randomBytes, randomUUID } from 'node:crypto';
import type {
  GetManagedIdentitySchemaLocation,
  IdentitySchemaPreset,
  ManagedIdentitySchema,
  ManagedIdentitySchemaValidationResult,
} from '@ory/client';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IDENTITY_META_SCHEMA, identitySchemaProblems, problemsMessage } from '../../shared/domain/identity-meta-schema';
import type { Caller } from '../kernel/caller';
import { badRequest, conflict, notFound, OryError } from '../kernel/errors';
import { projectFor } from '../kernel/permissions';
import { managedIdentitySchemas, type ManagedIdentitySchemaRow } from './schema';
import type { Queryable } from '../db/types';
import { isUniqueViolation } from '../db/errors';
import { tenantIdentityConfig } from '../kernel/tenant-config';
import { route, type RouteContext } from '../kernel/route';
import { IDENTITY_SCHEMA_PRESETS } from './presets';
import { rawMember } from './raw-member';
import { breakageMessage, contentHash, identitiesBrokenBy, managedSchemaMap, schemasOf } from './tenant-schemas';

/*
 * The console's identity-schema endpoints (no published route; Ory's orphan schemas give the shapes):
 * managed schemas of a project (managedIdentitySchema, written with schemaPatch), their validation
 * (managedIdentitySchemaValidationResult), Ory's presets (identitySchemaPreset) and the identity meta-schema.
 */

const MAX_SCHEMA_BYTES = 256 * 1024;

/** schemaPatch: `{name, data}`. */
export const schemaPatchBody = z.object({
  name: z
    .string({ error: 'name: give the schema a name' })
    .trim()
    .min(1, { error: 'name: give the schema a name' })
    .max(128, { error: 'name: at most 128 characters' }),
  data: z
    .record(z.string(), z.unknown(), { error: 'data: the identity schema must be a JSON object' })
    .refine((d) => JSON.stringify(d).length <= MAX_SCHEMA_BYTES, { error: `data: an identity schema is at most ${MAX_SCHEMA_BYTES / 1024} KiB` }),
});

const projectQuery = z.object({
  project_id: z.string({ error: "project_id: give the project's ID or slug" }).regex(/^[A-Za-z0-9-]{1,100}$/, { error: "project_id: must be the project's ID or slug" }),
});
const schemaParams = z.object({ schema_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });

/** The schema's text as its author sent it (rows saved before it was kept: their JSON). */
export const schemaText = (row: Pick<ManagedIdentitySchemaRow, 'content' | 'content_text'>): string => row.content_text ?? JSON.stringify(row.content);

export function managedSchemaView(row: ManagedIdentitySchemaRow): ManagedIdentitySchema {
  return {
    id: row.id,
    name: row.name,
    blob_name: row.blob_name,
    // The schema itself, byte for byte, in the form Ory's project config takes for `identity.schemas[].url`.
    blob_url: `base64://${Buffer.from(schemaText(row)).toString('base64')}`,
    content_hash: row.content_hash,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function assertValid(data: Record<string, unknown>): void {
  const problems = identitySchemaProblems(data);
  if (problems.length > 0) throw badRequest(`The identity schema is not valid:\n${problemsMessage(problems)}`, { problems });
}

const schemaNotFound = () => notFound('The identity schema does not exist, or you have no access to its project.');

/**
 * The managed schema `id` and its project, when the caller may `action` that project: a caller who may not
 * even read it gets the 404 of a schema that does not exist; a reader who may not write gets the 403.
 */
async function schemaFor(q: Queryable, caller: Caller, id: string, action: 'read' | 'write'): Promise<ManagedIdentitySchemaRow> {
  const query = q.orm.select().from(managedIdentitySchemas).where(eq(managedIdentitySchemas.id, id));
  const [row] = action === 'write' ? await query.for('update') : await query;
  if (!row) throw schemaNotFound();
  try {
    await projectFor(q, caller, row.project_id, 'read');
  } catch (err) {
    if (err instanceof OryError) throw schemaNotFound();
    throw err;
  }
  if (action === 'write') await projectFor(q, caller, row.project_id, 'write', true);
  return row;
}

const nameTaken = (name: string) => conflict(`This project already has an identity schema named "${name}"; choose another name.`);

/** The request bodies of these routes as they were sent, to keep a schema's text as its author wrote it. */
const sentBodies = new WeakMap<FastifyRequest, string>();

/** The text of the body's `data`, as sent (key order and layout included); its JSON when there is no text. */
const sentData = (req: FastifyRequest, data: Record<string, unknown>): string => {
  const sent = sentBodies.get(req);
  return (sent === undefined ? undefined : rawMember(sent, 'data')) ?? JSON.stringify(data);
};

export function registerIdentitySchemaRoutes(parent: FastifyInstance, ctx: RouteContext): void {
  void parent.register(async (scope) => {
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      sentBodies.set(req, body as string);
      json(req, body as string, done);
    });
    registerRoutes(scope, ctx);
  });
}

function registerRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/presets/identity/schemas',
    auth: 'public',
    handler: async () => IDENTITY_SCHEMA_PRESETS satisfies IdentitySchemaPreset[],
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/.well-known/identity-meta-schema',
    auth: 'public',
    handler: async () => IDENTITY_META_SCHEMA,
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/identity-schemas/validate',
    body: schemaPatchBody,
    auth: 'session-or-workspace-key',
    transaction: false,
    handler: async ({ body }): Promise<ManagedIdentitySchemaValidationResult> => {
      const problems = identitySchemaProblems(body.data);
      return problems.length === 0 ? { valid: true, message: 'The identity schema is valid.' } : { valid: false, message: problemsMessage(problems) };
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/identity-schemas',
    query: projectQuery,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, query }) => {
      const { project } = await projectFor(q, caller, query.project_id, 'read');
      const rows = await q.orm
        .select()
        .from(managedIdentitySchemas)
        .where(eq(managedIdentitySchemas.project_id, project.id))
        .orderBy(asc(managedIdentitySchemas.created_at), asc(managedIdentitySchemas.id));
      return rows.map(managedSchemaView);
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/identity-schemas',
    query: projectQuery,
    body: schemaPatchBody,
    auth: 'session-or-workspace-key',
    status: 201,
    handler: async ({ q, caller, query, body, req }) => {
      const { project } = await projectFor(q, caller, query.project_id, 'write', true);
      assertValid(body.data);
      const text = sentData(req, body.data);
      const now = new Date();
      try {
        const [row] = await q.orm
          .insert(managedIdentitySchemas)
          .values({
            id: randomUUID(),
            project_id: project.id,
            name: body.name,
            blob_name: `${randomBytes(16).toString('hex')}.schema.json`,
            content: body.data,
            content_text: text,
            content_hash: contentHash(body.data),
            created_at: now,
            updated_at: now,
          })
          .returning();
        return managedSchemaView(row!);
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(body.name);
        throw err;
      }
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/identity-schemas/:schema_id',
    params: schemaParams,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params }): Promise<GetManagedIdentitySchemaLocation> => ({
      location: managedSchemaView(await schemaFor(q, caller, params.schema_id, 'read')).blob_url,
    }),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/identity-schemas/:schema_id',
    params: schemaParams,
    body: schemaPatchBody,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params, body, req }) => {
      const current = await schemaFor(q, caller, params.schema_id, 'write');
      const project = { id: current.project_id };
      assertValid(body.data);
      // Identities of this schema (the project's config names it) must still match it.
      const config = await tenantIdentityConfig(q, project.id);
      const managed = await managedSchemaMap(q, project.id);
      const before = schemasOf(config, managed);
      const after = schemasOf(config, new Map(managed).set(current.id, body.data));
      const broken = await identitiesBrokenBy(q, project.id, before, after);
      if (broken.count > 0) throw conflict(breakageMessage(broken, `This change of the identity schema "${current.name}"`));
      try {
        const [row] = await q.orm
          .update(managedIdentitySchemas)
          .set({ name: body.name, content: body.data, content_text: sentData(req, body.data), content_hash: contentHash(body.data), updated_at: new Date() })
          .where(eq(managedIdentitySchemas.id, current.id))
          .returning();
        return managedSchemaView(row!);
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(body.name);
        throw err;
      }
    },
  });
}
