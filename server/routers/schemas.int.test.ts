import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontendApi, registerUser, signUpToProject } from '../test-support/users';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import type { AppDeps } from '../deps';
import { emailTrait, identitySchemaOf } from '../test-support/identity-schemas';
import { schemaFields } from '../../shared/domain/schema-form';

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let outsider: Caller;
let projectId: string;
let slug: string;
let otherProjectId: string;

/** The email-and-name preset with a `loyalty_id` the Identities form must show once it is the default. */
const loyaltySchema = (required = ['email']) =>
  JSON.stringify(
    identitySchemaOf(
      { email: emailTrait(), name: { type: 'string', title: 'Name' }, loyalty_id: { type: 'string', title: 'Loyalty number', pattern: '^[0-9]{6}$' } },
      required,
      { title: 'Customer' },
    ),
    null,
    2,
  );

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Schema Owner' }), registerUser(stack.url, { name: 'Schema Outsider' })]);
  owner = callerFor(deps, a.cookie);
  outsider = callerFor(deps, b.cookie);
  const project = await owner.projects.create({ name: 'Schemas', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
  otherProjectId = (await outsider.projects.create({ name: 'Other schemas', environment: 'dev' })).id;
});
afterAll(async () => {
  await stack?.close();
});

describe('identity schemas through the BFF', () => {
  it('lists presets and the built-in default of a new project', async () => {
    const presets = await owner.schemas.presets({ projectId });
    expect(presets.map((p) => p.id)).toEqual(expect.arrayContaining(['preset://email', 'preset://username', 'preset://phone', 'preset://email-name']));
    expect(presets.find((p) => p.id === 'preset://email')?.title).toBe('Email');
    const list = await owner.schemas.list({ projectId });
    expect(list).toMatchObject({ defaultId: 'default', active: [{ id: 'default', source: 'built-in' }], managed: [] });
  });

  it('validates the editor’s text, answering each problem at its line and column, never throwing', async () => {
    expect(await owner.schemas.validate({ projectId, schema: loyaltySchema() })).toEqual({ valid: true, problems: [] });
    const syntax = await owner.schemas.validate({ projectId, schema: '{\n  "type": "object",\n}' });
    expect(syntax).toEqual({
      valid: false,
      problems: [{ message: 'Not valid JSON: a comma cannot come before "}"; remove it', pointer: null, line: 3, column: 1 }],
    });
    const wrongVia = loyaltySchema().replace('"via": "email"', '"via": "pigeon"');
    const checked = await owner.schemas.validate({ projectId, schema: wrongVia });
    expect(checked.valid).toBe(false);
    expect(checked.problems).toEqual([
      {
        message: 'properties.traits.properties.email.ory.sh/kratos.verification.via must be one of "email", "sms"',
        pointer: '/properties/traits/properties/email/ory.sh~1kratos/verification/via',
        line: 20,
        column: 15,
      },
    ]);
    expect((await owner.schemas.validate({ projectId, schema: '' })).valid).toBe(false);
  });

  it('refuses what would stall the identity service (RE2-less patterns, depth, size, $ref expansion) at its line, fast', async () => {
    const lookahead = loyaltySchema().replace('"pattern": "^[0-9]{6}$"', '"pattern": "^(?=.*7)[0-9]{6}$"');
    const line = lookahead.split('\n').findIndex((l) => l.includes('"pattern"'));
    const checked = await owner.schemas.validate({ projectId, schema: lookahead });
    expect(checked).toEqual({
      valid: false,
      problems: [
        {
          message: expect.stringMatching(/^properties\.traits\.properties\.loyalty_id\.pattern is not a regular expression the identity service accepts/),
          pointer: '/properties/traits/properties/loyalty_id/pattern',
          line: line + 1,
          column: lookahead.split('\n')[line]!.indexOf('"pattern"') + 1,
        },
      ],
    });
    const refused = await rejection(owner.schemas.create({ projectId, name: 'Lookahead', schema: lookahead }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toMatch(new RegExp(`^The identity schema is not valid\\. Line ${line + 1}, column \\d+: properties\\.traits\\.properties\\.loyalty_id\\.pattern is not a regular expression`));

    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1000; i++) deep = { type: 'object', properties: { a: deep } };
    const tooDeep = await owner.schemas.validate({ projectId, schema: JSON.stringify(identitySchemaOf({ a: deep }, [])) });
    expect(tooDeep.valid).toBe(false);
    expect(tooDeep.problems[0]?.message).toMatch(/nests deeper than 64 levels/);
    expect((await rejection(owner.schemas.create({ projectId, name: 'Deep', schema: JSON.stringify(identitySchemaOf({ a: deep }, [])) }))).code).toBe('BAD_REQUEST');

    const fields = Object.fromEntries(Array.from({ length: 3500 }, (_, i) => [`field_${i}`, { type: 'string', title: `Field ${i}`, maxLength: 100 }]));
    const start = performance.now();
    const wide = await owner.schemas.validate({ projectId, schema: JSON.stringify(identitySchemaOf(fields, [])) });
    const ms = Math.round(performance.now() - start);
    expect(wide).toEqual({ valid: false, problems: [expect.objectContaining({ pointer: '', message: expect.stringMatching(/^has more than 1000 subschemas once its \$refs are expanded/) })] });
    console.info(`schemas.validate refused a 3,500-field schema in ${ms} ms`);
    expect(ms).toBeLessThan(5000);

    const definitions: Record<string, unknown> = { d40: { type: 'string' } };
    for (let i = 0; i < 40; i++) definitions[`d${i}`] = { anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
    const chain = JSON.stringify({ ...identitySchemaOf({ email: emailTrait(), x: { $ref: '#/definitions/d0' } }, ['email']), definitions });
    const expanding = await rejection(owner.schemas.create({ projectId, name: 'Chain', schema: chain }));
    expect(expanding.code).toBe('BAD_REQUEST');
    expect(expanding.message).toMatch(/has more than 1000 subschemas/);
  });

  it('creates, reads and updates a managed schema; refuses an invalid one naming its line', async () => {
    const created = await owner.schemas.create({ projectId, name: 'Customers', schema: loyaltySchema() });
    expect(created).toMatchObject({ name: 'Customers' });
    const got = await owner.schemas.get({ projectId, schemaId: created.id });
    expect(got.schema).toEqual(JSON.parse(loyaltySchema()));
    const broken = loyaltySchema().replace('"title": "Name"', '"title": 5');
    const line = broken.split('\n').findIndex((l) => l.includes('"title": 5'));
    const column = broken.split('\n')[line]!.indexOf('"title"') + 1;
    const bad = await rejection(owner.schemas.create({ projectId, name: 'Broken', schema: broken }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toBe(`The identity schema is not valid. Line ${line + 1}, column ${column}: properties.traits.properties.name.title must be string`);
    const syntax = await rejection(owner.schemas.create({ projectId, name: 'Broken', schema: '{"a": }' }));
    expect(syntax.message).toBe('The identity schema is not valid. Line 1, column 7: Not valid JSON: unexpected "}": expected a value (an object, array, string, number, true, false or null)');
    const taken = await rejection(owner.schemas.create({ projectId, name: 'Customers', schema: loyaltySchema() }));
    expect(taken.code).toBe('CONFLICT');
    const renamed = await owner.schemas.update({ projectId, schemaId: created.id, name: 'Clients', schema: loyaltySchema() });
    expect(renamed).toMatchObject({ id: created.id, name: 'Clients' });
    expect((await owner.schemas.list({ projectId })).managed.map((m) => m.name)).toEqual(['Clients']);
    // A schema belongs to its project: not reachable through another project of the same owner.
    const second = await owner.projects.create({ name: 'Second', environment: 'dev' });
    expect((await rejection(owner.schemas.get({ projectId: second.id, schemaId: created.id }))).code).toBe('NOT_FOUND');
    expect((await rejection(owner.schemas.update({ projectId: second.id, schemaId: created.id, name: 'Moved', schema: loyaltySchema() }))).code).toBe('NOT_FOUND');
  });

  it('keeps a saved schema’s text byte for byte, and its forms follow the author’s order of traits', async () => {
    const own = await owner.projects.create({ name: 'Ordered', environment: 'dev' });
    // Keys in an order jsonb would not keep (it sorts shorter keys first), laid out as nobody's serializer would.
    const text = [
      '{',
      '    "title": "Customer",',
      '    "$schema": "http://json-schema.org/draft-07/schema#",',
      '    "type": "object",',
      '    "properties": { "traits": {',
      '        "type": "object",',
      '        "properties": {',
      `            "email": ${JSON.stringify({ ...emailTrait(), title: 'Work email' })},`,
      '            "tier":  { "type": "string", "title": "Customer tier", "enum": ["gold", "silver"] },',
      '            "name":  { "type": "string", "title": "Full name" }',
      '        },',
      '        "required": ["email"]',
      '    } }',
      '}',
    ].join('\n');
    const created = await owner.schemas.create({ projectId: own.id, name: 'Customers', schema: `${text}\n` });
    expect((await owner.schemas.get({ projectId: own.id, schemaId: created.id })).text).toBe(text);
    expect((await owner.schemas.list({ projectId: own.id })).managed[0]?.text).toBe(text);

    await owner.schemas.setDefault({ projectId: own.id, schemaId: created.id });
    const [active] = await owner.identities.schemas({ projectId: own.id });
    expect(schemaFields(active?.schema).map((f) => f.label)).toEqual(['Work email', 'Customer tier', 'Full name']);
    const ownSlug = (await owner.projects.get({ projectId: own.id })).slug;
    const flow = await frontendApi(`${stack.url}/project-api/${ownSlug}`).createNativeRegistrationFlow();
    const traits = flow.data.ui.nodes.map((n) => (n.attributes as { name?: string }).name).filter((n) => n?.startsWith('traits.'));
    expect(traits).toEqual(['traits.email', 'traits.tier', 'traits.name']);

    const edited = text.replace('"Full name" }', '"Full name", "maxLength": 80 }');
    await owner.schemas.update({ projectId: own.id, schemaId: created.id, name: 'Customers', schema: edited });
    expect((await owner.schemas.get({ projectId: own.id, schemaId: created.id })).text).toBe(edited);
  });

  it('keeps user B out of A’s schemas, through the BFF and through B’s own data plane', async () => {
    const created = await owner.schemas.create({ projectId, name: 'Private to A', schema: loyaltySchema() });
    for (const attempt of [
      () => outsider.schemas.list({ projectId }),
      () => outsider.schemas.get({ projectId, schemaId: created.id }),
      () => outsider.schemas.get({ projectId: otherProjectId, schemaId: created.id }),
      () => outsider.schemas.update({ projectId, schemaId: created.id, name: 'Taken over', schema: loyaltySchema() }),
      () => outsider.schemas.setDefault({ projectId, schemaId: created.id }),
      () => outsider.schemas.setDefault({ projectId: otherProjectId, schemaId: created.id }),
      () => outsider.schemas.validate({ projectId, schema: '{}' }),
    ]) {
      expect((await rejection(attempt())).code).toMatch(/^(FORBIDDEN|NOT_FOUND)$/);
    }
    const theirs = await outsider.schemas.list({ projectId: otherProjectId });
    expect(theirs.managed).toEqual([]);
    expect(theirs.active.map((s) => s.id)).toEqual(['default']);
    const key = await outsider.apiKeys.create({ projectId: otherProjectId, name: 'B key' });
    const otherSlug = (await outsider.projects.get({ projectId: otherProjectId })).slug;
    const res = await fetch(`${stack.url}/project-api/${otherSlug}/schemas`, { headers: { authorization: `Bearer ${key.value}` } });
    const ids = ((await res.json()) as { id: string }[]).map((s) => s.id);
    expect(ids).toEqual(['default']);
    expect(ids).not.toContain(created.id);
  });

  it('refuses a default that existing identities would not match, saying how many, and sets one they match', async () => {
    await owner.identities.create({ projectId, schemaId: 'default', traits: { email: 'ada@example.com', name: 'Ada' } });
    await signUpToProject(stack.url, slug, 'grace@example.com');
    const strict = await owner.schemas.create({ projectId, name: 'Strict', schema: loyaltySchema(['email', 'loyalty_id']) });
    const refused = await rejection(owner.schemas.setDefault({ projectId, schemaId: strict.id }));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toMatch(/would make 2 existing identities of this project invalid \(for example traits\.loyalty_id: is required\)/);
    expect((await owner.schemas.list({ projectId })).defaultId).toBe('default');

    const unknown = await rejection(owner.schemas.setDefault({ projectId, schemaId: 'no-such-schema' }));
    expect(unknown.code).toBe('NOT_FOUND');

    const lenient = (await owner.schemas.list({ projectId })).managed.find((m) => m.name === 'Clients')!;
    const before = await owner.projects.get({ projectId });
    const set = await owner.schemas.setDefault({ projectId, schemaId: lenient.id });
    expect(set.defaultId).toBe(lenient.id);
    const after = await owner.schemas.list({ projectId });
    expect(after.defaultId).toBe(lenient.id);
    expect(after.active.map((s) => s.id)).toEqual([lenient.id]);
    expect(after.active[0]?.source).toBe('managed');
    // Every other project setting stays.
    expect((await owner.projects.get({ projectId })).name).toBe(before.name);

    // The admin API validates against the identity's own schema, naming the field.
    const bad = await rejection(owner.identities.create({ projectId, schemaId: lenient.id, traits: { email: 'lin@example.com', loyalty_id: 'abc' } }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/traits\.loyalty_id/);
    const made = await owner.identities.create({ projectId, schemaId: lenient.id, traits: { email: 'lin@example.com', loyalty_id: '123456' } });
    expect(made).toMatchObject({ schema_id: lenient.id, traits: { loyalty_id: '123456' } });
    expect((await owner.identities.schemas({ projectId }))[0]?.schema).toEqual(JSON.parse(loyaltySchema()));

    // Registration of the project's tenant shows the default schema's fields.
    const flow = await frontendApi(`${stack.url}/project-api/${slug}`).createNativeRegistrationFlow();
    const names = flow.data.ui.nodes.map((n) => (n.attributes as { name?: string }).name);
    expect(names).toEqual(expect.arrayContaining(['traits.email', 'traits.name', 'traits.loyalty_id', 'password']));

    // A change of that schema the identities would not survive is refused too.
    const tightened = await rejection(owner.schemas.update({ projectId, schemaId: lenient.id, name: 'Clients', schema: loyaltySchema(['email', 'loyalty_id']) }));
    expect(tightened.code).toBe('CONFLICT');
    expect(tightened.message).toMatch(/would make 2 existing identities/);

    // A preset can be the default too when the identities match it.
    const preset = await rejection(owner.schemas.setDefault({ projectId, schemaId: 'preset://username' }));
    expect(preset.message).toMatch(/existing identities/);
  });
});
