import { randomBytes, randomUUID } from 'node:crypto';
import type {
  GetManagedIdentitySchemaLocation,
  IdentitySchemaPreset,
  ManagedIdentitySchema,
  ManagedIdentitySchemaValidationResult,
} from '@ory/client';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IDENTITY_META_SCHEMA, identitySchemaProblems, problemsMessage } from '../../../shared/domain/identity-meta-schema';
import { badRequest, conflict, notFound } from '../controlplane/errors';
import { managedIdentitySchemas, type ManagedIdentitySchemaRow } from '../controlplane/schema';
import type { Queryable } from '../db/types';
import { isUniqueViolation } from '../db/errors';
import { tenantIdentityConfig } from '../identity/tenant-config';
import { route, type RouteContext } from '../route';
import { IDENTITY_SCHEMA_PRESETS } from './presets';
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

const schemaParams = z.object({
  project: z.string().regex(/^[A-Za-z0-9-]{1,100}$/, { error: "must be the project's ID or slug" }),
  schema_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()),
});
const projectParams = schemaParams.pick({ project: true });

const base64Url = (data: unknown) => `base64://${Buffer.from(JSON.stringify(data)).toString('base64')}`;

export function managedSchemaView(row: ManagedIdentitySchemaRow): ManagedIdentitySchema {
  return {
    id: row.id,
    name: row.name,
    blob_name: row.blob_name,
    // The schema itself, in the form Ory's project config takes for `identity.schemas[].url`.
    blob_url: base64Url(row.content),
    content_hash: row.content_hash,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function assertValid(data: Record<string, unknown>): void {
  const problems = identitySchemaProblems(data);
  if (problems.length > 0) throw badRequest(`The identity schema is not valid:\n${problemsMessage(problems)}`, { problems });
}

async function findSchema(q: Queryable, projectId: string, id: string, lock: boolean): Promise<ManagedIdentitySchemaRow> {
  const query = q.orm
    .select()
    .from(managedIdentitySchemas)
    .where(and(eq(managedIdentitySchemas.project_id, projectId), eq(managedIdentitySchemas.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('The identity schema does not exist in this project.');
  return row;
}

const nameTaken = (name: string) => conflict(`This project already has an identity schema named "${name}"; choose another name.`);

export function registerIdentitySchemaRoutes(scope: FastifyInstance, ctx: RouteContext): void {
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
    url: '/projects/:project/identity-schemas',
    params: projectParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    handler: async ({ q, project }) => {
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
    url: '/projects/:project/identity-schemas',
    params: projectParams,
    body: schemaPatchBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    handler: async ({ q, project, body }) => {
      assertValid(body.data);
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
    url: '/projects/:project/identity-schemas/:schema_id',
    params: schemaParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    handler: async ({ q, project, params }): Promise<GetManagedIdentitySchemaLocation> => ({
      location: managedSchemaView(await findSchema(q, project.id, params.schema_id, false)).blob_url,
    }),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/projects/:project/identity-schemas/:schema_id',
    params: schemaParams,
    body: schemaPatchBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    handler: async ({ q, project, params, body }) => {
      const current = await findSchema(q, project.id, params.schema_id, true);
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
          .set({ name: body.name, content: body.data, content_hash: contentHash(body.data), updated_at: new Date() })
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
