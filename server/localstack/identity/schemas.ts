import type { IdentitySchemaContainer } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { LocalStackContext } from '../context';
import { route } from '../route';
import { OryHttpError } from './errors';

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
          title: 'E-Mail',
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

const SCHEMA_IDS = new Set(['default', Buffer.from('default').toString('base64url')]);

/** GET /schemas and GET /schemas/{id} (listIdentitySchemas, getIdentitySchema), public as in Kratos. */
export function registerSchemaRoutes(app: FastifyInstance, ctx: LocalStackContext): void {
  route(app, ctx, {
    method: 'GET',
    url: '/schemas',
    query: z.looseObject({}),
    auth: 'public',
    handler: async () => [{ id: 'default', schema: IDENTITY_SCHEMA }] satisfies IdentitySchemaContainer[],
  });
  route(app, ctx, {
    method: 'GET',
    url: '/schemas/:id',
    params: z.object({ id: z.string().max(512) }),
    auth: 'public',
    handler: async ({ params }) => {
      if (!SCHEMA_IDS.has(params.id)) throw new OryHttpError(404, { reason: 'The requested identity schema does not exist.' });
      return IDENTITY_SCHEMA;
    },
  });
}
