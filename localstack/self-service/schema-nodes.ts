import type { UiNodeInputAttributesAutocompleteEnum } from '@ory/client';
import { coerce, schemaFields, valueAt, withValue, type SchemaField } from '../../shared/domain/schema-form';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { schemaFor, tenantSchemas, traitsProblem } from '../identity-schema/tenant-schemas';
import { identities } from '../identity/schema';
import { IDENTITY_SCHEMA } from '../identity-schema/console-schema';
import { CONSOLE_NID } from '../kernel/tenant-id';
import type { JsonObject } from '../kernel/tenant-config';
import { addNodeMessage, csrfNode, input, setValue, type UiNode } from './nodes';
import { texts } from './texts';

/*
 * Registration nodes of a tenant whose default identity schema is its own: one input per leaf trait of the
 * schema (nested objects flattened to `traits.name.first`), as Kratos renders a schema's traits.
 */

function leaves(fields: SchemaField[]): SchemaField[] {
  return fields.flatMap((f) => (f.kind === 'object' ? leaves(f.fields) : f.kind === 'list' ? [] : [f]));
}

const INPUT_TYPE: Partial<Record<SchemaField['kind'], string>> = {
  email: 'email',
  tel: 'tel',
  url: 'url',
  number: 'number',
  integer: 'number',
  boolean: 'checkbox',
  date: 'date',
  datetime: 'datetime-local',
};

const AUTOCOMPLETE: Partial<Record<SchemaField['kind'], UiNodeInputAttributesAutocompleteEnum>> = { email: 'email', tel: 'tel' };

function traitNodes(schema: JsonObject, traits: Record<string, unknown>, group: 'default' | 'profile' = 'default'): UiNode[] {
  return leaves(schemaFields(schema)).map((f) => {
    const value = valueAt(traits, f.path);
    const autocomplete = f.identifier && !AUTOCOMPLETE[f.kind] ? 'username' : AUTOCOMPLETE[f.kind];
    return input(group, `traits.${f.path}`, INPUT_TYPE[f.kind] ?? 'text', {
      ...(value !== undefined ? { value } : {}),
      ...(f.required ? { required: true } : {}),
      ...(autocomplete ? { autocomplete } : {}),
      ...(f.maxLength ? { maxlength: f.maxLength } : {}),
      label: texts.labelGenerated(f.label),
    });
  });
}

export function schemaRegistrationNodes(csrf: string, schema: JsonObject, traits: Record<string, unknown> = {}): UiNode[] {
  return [
    csrfNode(csrf),
    ...traitNodes(schema, traits),
    input('password', 'password', 'password', { required: true, autocomplete: 'new-password', label: texts.labelPassword() }),
    input('password', 'method', 'submit', { value: 'password', label: texts.signUp() }),
  ];
}

/** Settings of an identity whose schema is its project's own: its traits' fields, then a new password. */
export function schemaSettingsNodes(csrf: string, schema: JsonObject, traits: Record<string, unknown>): UiNode[] {
  return [
    csrfNode(csrf),
    ...traitNodes(schema, traits, 'profile'),
    input('profile', 'method', 'submit', { value: 'profile', label: texts.labelSave() }),
    input('password', 'password', 'password', { required: true, autocomplete: 'new-password', label: texts.labelPassword() }),
    input('password', 'method', 'submit', { value: 'password', label: texts.labelSave() }),
  ];
}

/**
 * The schema of an identity of a project's tenant when it is the project's own, else null (the console's
 * tenant, and projects on the built-in schema, keep the fixed email-and-name form).
 */
export async function ownIdentitySchema(q: Queryable, nid: string, identityId: string | null): Promise<JsonObject | null> {
  if (nid === CONSOLE_NID || !identityId) return null;
  const [row] = await q.orm
    .select({ schema_id: identities.schema_id })
    .from(identities)
    .where(and(eq(identities.nid, nid), eq(identities.id, identityId)));
  if (!row) return null;
  const schema = schemaFor(await tenantSchemas(q, nid), row.schema_id)?.schema;
  return schema && schema !== IDENTITY_SCHEMA ? schema : null;
}

/** A submitted form's traits (`traits.name.first` keys, or nested objects) in the schema's shape and types. */
export function submittedTraits(schema: JsonObject, raw: Record<string, unknown> | undefined): Record<string, unknown> {
  let traits: Record<string, unknown> = {};
  for (const f of leaves(schemaFields(schema))) {
    const value = raw?.[f.path] ?? (raw ? valueAt(raw, f.path) : undefined);
    if (value === undefined || value === null) continue;
    if (f.kind === 'boolean') traits = withValue(traits, f.path, value === true || value === 'true' || value === 'on');
    else traits = withValue(traits, f.path, typeof value === 'string' ? coerce(f, f.kind === 'email' ? value.trim() : value) : value);
  }
  return traits;
}

/**
 * Validates traits against the schema, echoing the values into the nodes and putting each problem on the
 * node it names (the whole form's message when it names none). False when invalid.
 */
export function checkSubmittedTraits(nodes: UiNode[], schema: JsonObject, traits: Record<string, unknown>): boolean {
  for (const f of leaves(schemaFields(schema))) setValue(nodes, `traits.${f.path}`, valueAt(traits, f.path) ?? '');
  const problem = traitsProblem(schema, traits);
  if (!problem) return true;
  for (const part of problem.split('; ')) {
    const match = /^(traits\.[^:]+): (.*)$/.exec(part);
    const name = match?.[1] ?? '';
    const message = match?.[2] ?? part;
    const text = message === 'is required' ? texts.required(name.slice('traits.'.length).split('.').at(-1) ?? name) : { id: 4000001, text: message, type: 'error' as const };
    if (nodes.some((n) => (n.attributes as { name?: string }).name === name)) addNodeMessage(nodes, name, text);
    else addNodeMessage(nodes, 'password', text);
  }
  return false;
}
