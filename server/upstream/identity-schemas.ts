import type { JsonPatch } from '@ory/client';
import type { z } from 'zod';
import { assertRequiredParams } from '../../shared/domain/required-param';
import {
  identitySchemaPresetsSchema,
  managedIdentitySchemaSchema,
  managedIdentitySchemasSchema,
  managedSchemaLocationSchema,
  schemaValidationResultSchema,
} from '../../shared/schemas/identity-schemas';
import { projectSchema } from '../../shared/schemas/project';
import type { CallContext } from './backoffice';
import type { ControlPlaneSdk } from './control-plane-sdk';
import { JsonText, path, type HttpMethod } from './http';

type Call = <T>(
  c: CallContext,
  method: HttpMethod,
  p: string,
  schema?: z.ZodType<T>,
  body?: unknown,
  query?: Record<string, string | number | undefined>,
) => Promise<T>;

/** schemaPatch; `text`, when given, is `data` as its author wrote it (valid JSON of the same object). */
type SchemaPatch = { name: string; data: Record<string, unknown>; text?: string };

/** The schemaPatch body, `data` in the author's own text when there is one: the schema is stored as sent. */
const patchBody = ({ name, data, text }: SchemaPatch) =>
  text === undefined ? { name, data } : new JsonText(`{"name":${JSON.stringify(name)},"data":${text}}`);

/**
 * Spec §7 identity-schema calls. They have no SDK method (CONTRACT.md: orphan schemas managedIdentitySchema,
 * identitySchemaPreset, schemaPatch, …) and go through our own client; the revision patch that sets the
 * default schema is ProjectApi.patchProjectWithRevision.
 */
export function createIdentitySchemaCalls(call: Call, sdk: ControlPlaneSdk) {
  const { projects, send } = sdk;
  return {
    list(c: CallContext, projectId: string) {
      assertRequiredParams('listManagedIdentitySchemas', { projectId });
      return call(c, 'GET', '/identity-schemas', managedIdentitySchemasSchema, undefined, { project_id: projectId });
    },
    location(c: CallContext, schemaId: string) {
      assertRequiredParams('getManagedIdentitySchema', { schemaId });
      return call(c, 'GET', path`/identity-schemas/${schemaId}`, managedSchemaLocationSchema);
    },
    create(c: CallContext, projectId: string, body: SchemaPatch) {
      assertRequiredParams('createManagedIdentitySchema', { projectId, schemaPatch: body });
      return call(c, 'POST', '/identity-schemas', managedIdentitySchemaSchema, patchBody(body), { project_id: projectId });
    },
    update(c: CallContext, schemaId: string, body: SchemaPatch) {
      assertRequiredParams('updateManagedIdentitySchema', { schemaId, schemaPatch: body });
      return call(c, 'PUT', path`/identity-schemas/${schemaId}`, managedIdentitySchemaSchema, patchBody(body));
    },
    validate(c: CallContext, body: { name: string; data: Record<string, unknown> }) {
      assertRequiredParams('validateManagedIdentitySchema', { schemaPatch: body });
      return call(c, 'POST', '/identity-schemas/validate', schemaValidationResultSchema, body);
    },
    presets: (c: CallContext) => call(c, 'GET', '/presets/identity/schemas', identitySchemaPresetsSchema),
    /** A JSON patch on the revision it was made from (a stale one answers 409). */
    patchRevision(c: CallContext, projectId: string, revisionId: string, jsonPatch: JsonPatch[]) {
      assertRequiredParams('patchProjectWithRevision', { projectId, revisionId, jsonPatch });
      return send(c, 'patchProjectWithRevision', undefined, (o) => projects.patchProjectWithRevision({ projectId, revisionId, jsonPatch }, o)).then(
        () => undefined,
      );
    },
    getProject(c: CallContext, projectId: string) {
      assertRequiredParams('getProject', { projectId });
      return send(c, 'getProject', projectSchema, (o) => projects.getProject({ projectId }, o));
    },
  };
}
