import type { IdentitySchemaContainer } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { LocalStackContext } from '../kernel/context';
import { route } from '../kernel/route';
import { schemaFor, tenantSchemas } from './tenant-schemas';
import { OryError } from '../kernel/errors';
import { tenantOf } from '../kernel/tenant';

/** The console's identity schema (Kratos' email preset plus a name). */
export const IDENTITY_SCHEMA = {
  $id: 'https://schemas.ory.sh/presets/kratos/identity.email.schema.json',
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Person',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: {
          type: 'string',
          format: 'email',
          title: 'Email',
          'ory.sh/kratos': {
            credentials: { password: { identifier: true } },
            recovery: { via: 'email' },
            verification: { via: 'email' },
          },
        },
        name: { type: 'string', title: 'Name', maxLength: 256 },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
};

/** A schema id as a path segment takes: the id itself or its base64url form (Kratos' schema_url). */
function idOfSegment(segment: string, known: string[]): string {
  if (known.includes(segment)) return segment;
  const decoded = Buffer.from(segment, 'base64url').toString('utf8');
  return Buffer.from(decoded).toString('base64url') === segment ? decoded : segment;
}

/**
 * GET /schemas and GET /schemas/{id} (listIdentitySchemas, getIdentitySchema), public as in Kratos: the
 * tenant's own schemas (a project's config, the console's fixed one), the default first.
 */
export function registerSchemaRoutes(app: FastifyInstance, ctx: LocalStackContext): void {
  route(app, ctx, {
    method: 'GET',
    url: '/schemas',
    query: z.looseObject({}),
    auth: 'public',
    handler: async ({ q, req }) =>
      (await tenantSchemas(q, tenantOf(req).nid)).list.map((s) => ({ id: s.id, schema: s.schema })) satisfies IdentitySchemaContainer[],
  });
  route(app, ctx, {
    method: 'GET',
    url: '/schemas/:id',
    params: z.object({ id: z.string().max(512) }),
    auth: 'public',
    handler: async ({ q, req, params }) => {
      const schemas = await tenantSchemas(q, tenantOf(req).nid);
      const found = schemaFor(schemas, idOfSegment(params.id, schemas.list.map((s) => s.id)));
      if (!found) throw new OryError(404, { reason: 'The requested identity schema does not exist.' });
      return found.schema;
    },
  });
}
