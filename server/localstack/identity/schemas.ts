import type { FastifyInstance } from 'fastify';
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

/** GET /schemas and GET /schemas/{id} (listIdentitySchemas, getIdentitySchema). */
export function registerSchemaRoutes(app: FastifyInstance): void {
  app.get('/schemas', async () => [{ id: 'default', schema: IDENTITY_SCHEMA }]);
  app.get<{ Params: { id: string } }>('/schemas/:id', async (req) => {
    if (!SCHEMA_IDS.has(req.params.id)) throw new OryHttpError(404, { reason: 'The requested identity schema does not exist.' });
    return IDENTITY_SCHEMA;
  });
}
