import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOryError, startTestStack } from '../test-support/control-plane';
import { call, newUser, projectWithKey, uniqueEmail, type TestProject, type TestUser } from '../test-support/admin-api';
import type { LocalStack } from '../index';
import { emailTrait, identitySchemaOf } from '../../server/test-support/identity-schemas';

let stack: LocalStack;
let owner: TestUser;
let other: TestUser;
let project: TestProject;
let otherProject: TestProject;

/** The email preset plus a required `phone`: what existing email-only identities do not have. */
const withPhone = (required: string[] = ['email', 'phone']) =>
  identitySchemaOf({ email: emailTrait(), phone: { type: 'string', title: 'Phone number', minLength: 3 } }, required, { additionalProperties: false });

const setDefault = (user: TestUser, p: TestProject, id: string, url: string) =>
  user.call('PATCH', `/projects/${p.id}`, [
    { op: 'add', path: '/services/identity/config/identity', value: { schemas: [{ id, url }], default_schema_id: id } },
  ]);

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'SchemaOwner');
  other = await newUser(stack, 'SchemaOther');
  project = await projectWithKey(stack, owner, 'Schemas A');
  otherProject = await projectWithKey(stack, other, 'Schemas B');
});

afterAll(async () => {
  await stack?.close();
});

describe('presets and the meta-schema', () => {
  it('serves Ory presets whose schemas are valid identity schemas', async () => {
    const presets = await owner.call('GET', '/presets/identity/schemas');
    expect(presets.status).toBe(200);
    const urls = (presets.body as { url: string }[]).map((p) => p.url);
    expect(urls).toEqual(expect.arrayContaining(['preset://email', 'preset://username', 'preset://phone', 'preset://email-name']));
    for (const preset of presets.body as { url: string; schema: unknown }[]) {
      const checked = await owner.call('POST', '/identity-schemas/validate', { name: preset.url, data: preset.schema });
      expect(checked.body, preset.url).toEqual({ valid: true, message: 'The identity schema is valid.' });
    }
    const meta = await owner.call('GET', '/.well-known/identity-meta-schema');
    expect(meta.status).toBe(200);
    expect(meta.body.$id).toBe('https://schemas.ory.sh/kratos/identity.meta.schema.json');
  });

  it('answers what is wrong, each problem at its JSON pointer', async () => {
    // Verified by pigeon, and a phone of type 'strin'.
    const bad = identitySchemaOf({ email: emailTrait('pigeon'), phone: { type: 'strin', title: 'Phone number', minLength: 3 } }, ['email', 'phone'], { additionalProperties: false });
    const checked = await owner.call('POST', '/identity-schemas/validate', { name: 'bad', data: bad });
    expect(checked.status).toBe(200);
    expect(checked.body.valid).toBe(false);
    expect(checked.body.message).toContain('#/properties/traits/properties/email/ory.sh%2Fkratos/verification/via: must be one of "email", "sms"');
    expect(checked.body.message).toContain('#/properties/traits/properties/phone/type');
    const noTraits = await owner.call('POST', '/identity-schemas/validate', { name: 'x', data: { type: 'object', properties: {} } });
    expect(noTraits.body).toEqual({ valid: false, message: '#/properties: must have the property "traits"' });
  });

  it('needs a signed-in caller to validate', async () => {
    const answer = await call(stack.url, 'POST', '/identity-schemas/validate', { body: { name: 'x', data: withPhone() } });
    expectOryError(answer, 401);
  });
});

describe('managed schemas of a project', () => {
  it('creates, lists, reads and updates a schema; refuses an invalid one and a taken name', async () => {
    const created = await owner.call('POST', `/identity-schemas?project_id=${project.id}`, { name: 'Customers', data: withPhone(['email']) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Customers', blob_name: expect.stringMatching(/\.schema\.json$/), content_hash: expect.any(String) });
    expect(created.body.blob_url).toMatch(/^base64:\/\//);

    const listed = await owner.call('GET', `/identity-schemas?project_id=${project.slug}`);
    expect(listed.body.map((s: { id: string }) => s.id)).toContain(created.body.id);

    const location = await owner.call('GET', `/identity-schemas/${created.body.id}`);
    expect(location.status).toBe(200);
    const content = JSON.parse(Buffer.from(location.body.location.slice('base64://'.length), 'base64').toString('utf8'));
    expect(content).toEqual(withPhone(['email']));

    const invalid = await owner.call('POST', `/identity-schemas?project_id=${project.id}`, { name: 'Broken', data: { properties: { traits: { type: 'array' } } } });
    expectOryError(invalid, 400, /#\/properties\/traits\/type: must be "object"/);
    const names = (await owner.call('GET', `/identity-schemas?project_id=${project.id}`)).body.map((s: { name: string }) => s.name);
    expect(names).not.toContain('Broken');

    const nul = { ...withPhone(), title: 'a\u0000b' };
    expectOryError(await owner.call('POST', `/identity-schemas?project_id=${project.id}`, { name: 'Nul', data: nul }), 400, /must not contain the NUL character/);
    const taken = await owner.call('POST', `/identity-schemas?project_id=${project.id}`, { name: 'Customers', data: withPhone() });
    expectOryError(taken, 409, /already has an identity schema named "Customers"/);

    const renamed = await owner.call('PUT', `/identity-schemas/${created.body.id}`, { name: 'Clients', data: withPhone(['email']) });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.body.id, name: 'Clients' });
  });

  it('keeps the schema as it was sent, byte for byte, and serves its traits in that order', async () => {
    const p = await projectWithKey(stack, owner, 'Schemas bytes');
    const data = `{ "type": "object",\n\t"properties": {"traits": {"type": "object", "properties": {\n  "email": ${JSON.stringify(emailTrait())},\n  "tier": {"type": "string"},\n  "name": {"type": "string", "title": "Na\\u006de \\"full\\""}\n}}}\n}`;
    const sent = `{"data" : ${data}  , "name": "Bytes \\"data\\": {}"}`;
    const created = await owner.call('POST', `/identity-schemas?project_id=${p.id}`, sent);
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Bytes "data": {}');
    const location = await owner.call('GET', `/identity-schemas/${created.body.id}`);
    expect(Buffer.from(location.body.location.slice('base64://'.length), 'base64').toString('utf8')).toBe(data);
    expect(created.body.blob_url).toBe(location.body.location);

    expect((await setDefault(owner, p, created.body.id, created.body.blob_url)).status).toBe(200);
    const served = await call(p.base, 'GET', `/schemas/${created.body.id}`);
    expect(Object.keys(served.body.properties.traits.properties)).toEqual(['email', 'tier', 'name']);
  });

  it('keeps one user out of another user’s schemas', async () => {
    const created = await owner.call('POST', `/identity-schemas?project_id=${project.id}`, { name: 'Private', data: withPhone(['email']) });
    expectOryError(await other.call('GET', `/identity-schemas?project_id=${project.id}`), 403);
    expectOryError(await other.call('POST', `/identity-schemas?project_id=${project.id}`, { name: 'Planted', data: withPhone() }), 403);
    // A schema of a project B cannot read does not exist for B.
    expectOryError(await other.call('GET', `/identity-schemas/${created.body.id}`), 404);
    expectOryError(await other.call('PUT', `/identity-schemas/${created.body.id}`, { name: 'Mine', data: withPhone() }), 404);
    expect((await owner.call('GET', `/identity-schemas/${created.body.id}`)).status).toBe(200);
    expect((await other.call('GET', `/identity-schemas?project_id=${otherProject.id}`)).body).toEqual([]);
    const bSchemas = await call(otherProject.base, 'GET', '/schemas', { key: otherProject.key });
    expect(bSchemas.body.map((s: { id: string }) => s.id)).toEqual(['default']);
  });
});

describe("the project's tenant uses its own schemas", () => {
  it('lists the configured schemas, validates identities against theirs, and registers with the default one', async () => {
    const created = await owner.call('POST', `/identity-schemas?project_id=${project.id}`, { name: 'With phone', data: withPhone(['email']) });
    const id = created.body.id as string;
    expect((await setDefault(owner, project, id, created.body.blob_url)).status).toBe(200);

    const schemas = await call(project.base, 'GET', '/schemas');
    expect(schemas.body.map((s: { id: string }) => s.id)).toEqual([id]);
    const one = await call(project.base, 'GET', `/schemas/${Buffer.from(id).toString('base64url')}`);
    expect(one.body.properties.traits.properties.phone).toMatchObject({ title: 'Phone number' });

    const bad = await call(project.base, 'POST', '/admin/identities', { key: project.key, body: { schema_id: id, traits: { email: uniqueEmail('p'), phone: 'x' } } });
    expectOryError(bad, 400, /traits\.phone: must NOT have fewer than 3 characters/);
    const unknown = await call(project.base, 'POST', '/admin/identities', { key: project.key, body: { schema_id: 'nope', traits: { email: uniqueEmail('p') } } });
    expectOryError(unknown, 400, /schema_id: the identity schema "nope" does not exist/);
    const email = uniqueEmail('Phone');
    const good = await call(project.base, 'POST', '/admin/identities', { key: project.key, body: { schema_id: id, traits: { email, phone: '+49 30 1234' } } });
    expect(good.status).toBe(201);
    expect(good.body).toMatchObject({
      schema_id: id,
      verifiable_addresses: [{ value: email.toLowerCase(), via: 'email' }],
      recovery_addresses: [{ value: email.toLowerCase(), via: 'email' }],
    });

    const flow = await call(project.base, 'GET', '/self-service/registration/api');
    expect(flow.status).toBe(200);
    const names = flow.body.ui.nodes.map((n: { attributes: { name?: string } }) => n.attributes.name);
    expect(names).toEqual(expect.arrayContaining(['traits.email', 'traits.phone', 'password']));
    expect(names).not.toContain('traits.name');

    const registered = await call(project.base, 'POST', `/self-service/registration?flow=${flow.body.id}`, {
      body: { method: 'password', password: 'a-long-and-unusual-passphrase-42', traits: { email: uniqueEmail('reg'), phone: '+1 555 0100' } },
    });
    expect(registered.status).toBe(200);
    expect(registered.body.identity.traits.phone).toBe('+1 555 0100');

    // Settings of that identity show and save the schema's fields.
    const token = { 'x-session-token': registered.body.session_token as string };
    const settings = await call(project.base, 'GET', '/self-service/settings/api', { headers: token });
    expect(settings.status).toBe(200);
    expect(settings.body.ui.nodes.map((n: { attributes: { name?: string } }) => n.attributes.name)).toEqual(expect.arrayContaining(['traits.phone']));
    const saved = await call(project.base, 'POST', `/self-service/settings?flow=${settings.body.id}`, {
      headers: token,
      body: { method: 'profile', traits: { email: registered.body.identity.traits.email, phone: '+1 555 0199' } },
    });
    expect(saved.status).toBe(200);
    const refused = await call(project.base, 'POST', `/self-service/settings?flow=${settings.body.id}`, {
      headers: token,
      body: { method: 'profile', traits: { email: registered.body.identity.traits.email, phone: 'x' } },
    });
    expect(refused.status).toBe(400);
    const phoneNode = refused.body.ui.nodes.find((n: { attributes: { name?: string } }) => n.attributes.name === 'traits.phone');
    expect(phoneNode.messages[0].text).toMatch(/fewer than 3 characters/);
    const after = await call(project.base, 'GET', `/admin/identities/${registered.body.identity.id}`, { key: project.key });
    expect(after.body.traits.phone).toBe('+1 555 0199');

    // The console's own tenant keeps its schema.
    const own = await call(stack.url, 'GET', '/schemas');
    expect(own.body.map((s: { id: string }) => s.id)).toEqual(['default']);
  });

  it('refuses a default or a change that existing identities would not match, saying how many', async () => {
    const p = await projectWithKey(stack, owner, 'Schemas C');
    for (const label of ['one', 'two']) {
      const made = await call(p.base, 'POST', '/admin/identities', { key: p.key, body: { traits: { email: uniqueEmail(label) } } });
      expect(made.status).toBe(201);
    }
    const strict = await owner.call('POST', `/identity-schemas?project_id=${p.id}`, { name: 'Strict', data: withPhone() });
    const refused = await setDefault(owner, p, strict.body.id, strict.body.blob_url);
    expectOryError(refused, 409, /would make 2 existing identities of this project invalid \(for example traits\.phone: is required\)/);
    expect((await call(p.base, 'GET', '/schemas')).body.map((s: { id: string }) => s.id)).toEqual(['default']);

    const lenient = await owner.call('POST', `/identity-schemas?project_id=${p.id}`, { name: 'Lenient', data: withPhone(['email']) });
    expect((await setDefault(owner, p, lenient.body.id, lenient.body.blob_url)).status).toBe(200);
    const tightened = await owner.call('PUT', `/identity-schemas/${lenient.body.id}`, { name: 'Lenient', data: withPhone() });
    expectOryError(tightened, 409, /would make 2 existing identities/);
  });
});

describe('the project config takes only identity schemas the identity service can use', () => {
  it('refuses an invalid schema, an unreadable url and a default that names no schema, naming the entry', async () => {
    const p = await projectWithKey(stack, owner, 'Schemas D');
    const bad = Buffer.from(JSON.stringify({ properties: { traits: { type: 'strin' } } })).toString('base64');
    const invalid = await setDefault(owner, p, 'broken', `base64://${bad}`);
    expectOryError(invalid, 400, /identity\.schemas\[0\] \("broken"\) is not a valid identity schema:\n#\/properties\/traits\/type/);
    const unreadable = await setDefault(owner, p, 'remote', 'https://example.com/schema.json');
    expectOryError(unreadable, 400, /the url must be base64:\/\/…/);
    const dangling = await owner.call('PATCH', `/projects/${p.id}`, [
      { op: 'add', path: '/services/identity/config/identity', value: { schemas: [{ id: 'email', url: 'preset://email' }], default_schema_id: 'nope' } },
    ]);
    expectOryError(dangling, 400, /default_schema_id must be the id of one of services\.identity\.config\.identity\.schemas: "email"/);
    expect((await call(p.base, 'GET', '/schemas')).body.map((s: { id: string }) => s.id)).toEqual(['default']);
    const preset = await owner.call('PATCH', `/projects/${p.id}`, [
      { op: 'add', path: '/services/identity/config/identity', value: { schemas: [{ id: 'email', url: 'preset://email' }], default_schema_id: 'email' } },
    ]);
    expect(preset.status).toBe(200);
    expect((await call(p.base, 'GET', '/schemas')).body.map((s: { id: string }) => s.id)).toEqual(['email']);
  });
});

describe('schemas that would stall the identity service', () => {
  const timed = async <T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const start = performance.now();
    const value = await run();
    return { value, ms: Math.round(performance.now() - start) };
  };

  it('runs patterns on RE2: a catastrophic pattern answers a public registration at once', async () => {
    const p = await projectWithKey(stack, owner, 'Schemas ReDoS');
    const schema = identitySchemaOf({ email: emailTrait(), code: { type: 'string', title: 'Code', pattern: '^(a+)+$' } }, ['email'], { additionalProperties: false });
    const created = await owner.call('POST', `/identity-schemas?project_id=${p.id}`, { name: 'Codes', data: schema });
    expect(created.status).toBe(201);
    expect((await setDefault(owner, p, created.body.id, created.body.blob_url)).status).toBe(200);

    const flow = await call(p.base, 'GET', '/self-service/registration/api');
    // 30 characters cost a backtracking engine about 2^30 steps: seconds to minutes of a stalled process.
    const attack = await timed(() =>
      call(p.base, 'POST', `/self-service/registration?flow=${flow.body.id}`, {
        body: { method: 'password', password: 'a-long-and-unusual-passphrase-42', traits: { email: uniqueEmail('redos'), code: `${'a'.repeat(30)}!` } },
      }),
    );
    expect(attack.value.status).toBe(400);
    const codeNode = attack.value.body.ui.nodes.find((n: { attributes: { name?: string } }) => n.attributes.name === 'traits.code');
    expect(codeNode.messages[0].text).toMatch(/must match pattern/);
    expect(attack.ms).toBeLessThan(5000);

    const admin = await timed(() => call(p.base, 'POST', '/admin/identities', { key: p.key, body: { traits: { email: uniqueEmail('redos'), code: `${'a'.repeat(30)}!` } } }));
    expectOryError(admin.value, 400, /traits\.code: must match pattern/);
    expect(admin.ms).toBeLessThan(5000);
  });

  it('refuses a pattern RE2 cannot compile, naming its pointer, wherever a schema comes in', async () => {
    const p = await projectWithKey(stack, owner, 'Schemas RE2');
    const lookahead = identitySchemaOf({ email: emailTrait(), pin: { type: 'string', pattern: '^(?=.*[0-9]).{4}$' } }, ['email']);
    const created = await owner.call('POST', `/identity-schemas?project_id=${p.id}`, { name: 'Lookahead', data: lookahead });
    expectOryError(created, 400, /The identity schema is not valid:\n#\/properties\/traits\/properties\/pin\/pattern: is not a regular expression the identity service accepts/);

    const keyed = identitySchemaOf({ email: emailTrait() }, ['email']);
    (keyed.properties as { traits: Record<string, unknown> }).traits.patternProperties = { '^(x)\\1$': { type: 'string' } };
    const checked = await owner.call('POST', '/identity-schemas/validate', { name: 'x', data: keyed });
    expect(checked.body.valid).toBe(false);
    expect(checked.body.message).toMatch(/^#\/properties\/traits\/patternProperties\/%5E\(x\)%5C1%24: is not a regular expression/);

    const inConfig = await setDefault(owner, p, 'look', `base64://${Buffer.from(JSON.stringify(lookahead)).toString('base64')}`);
    expectOryError(inConfig, 400, /schemas\[0\] \("look"\) is not a valid identity schema:\n#\/properties\/traits\/properties\/pin\/pattern/);
    // RE2's own syntax is taken: an inline flag JavaScript does not know.
    const caseless = identitySchemaOf({ email: emailTrait(), pin: { type: 'string', pattern: '(?i)^[a-f0-9]{4}$' } }, ['email']);
    expect((await owner.call('POST', '/identity-schemas/validate', { name: 'x', data: caseless })).body).toEqual({ valid: true, message: 'The identity schema is valid.' });
  });

  it('refuses a schema too deep, too large or whose $refs expand without end, fast, while another tenant is served', async () => {
    const p = await projectWithKey(stack, owner, 'Schemas heavy');
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1000; i++) deep = { type: 'object', properties: { a: deep } };
    const tooDeep = await owner.call('POST', `/identity-schemas?project_id=${p.id}`, { name: 'Deep', data: identitySchemaOf({ a: deep }, []) });
    expectOryError(tooDeep, 400, /#\/properties\/traits\/properties\/a\/properties\/a\/.*: nests deeper than 64 levels/);

    const fields = Object.fromEntries(Array.from({ length: 3500 }, (_, i) => [`field_${i}`, { type: 'string', title: `Field ${i}`, maxLength: 100 }]));
    const wide = await owner.call('POST', '/identity-schemas/validate', { name: 'wide', data: identitySchemaOf(fields, []) });
    expect(wide.body).toEqual({ valid: false, message: expect.stringMatching(/^#: has more than 1000 subschemas once its \$refs are expanded/) });

    const definitions: Record<string, unknown> = { d40: { type: 'string' } };
    for (let i = 0; i < 40; i++) definitions[`d${i}`] = { anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
    const chain = { ...identitySchemaOf({ email: emailTrait(), x: { $ref: '#/definitions/d0' } }, ['email']), definitions };

    // The other tenant's own request, timed while the chain is refused (and alone, for comparison).
    const alone = await timed(() => call(otherProject.base, 'GET', '/schemas'));
    const [refusal, concurrent] = await Promise.all([
      timed(() => owner.call('POST', `/identity-schemas?project_id=${p.id}`, { name: 'Chain', data: chain })),
      timed(() => call(otherProject.base, 'GET', '/schemas')),
    ]);
    expectOryError(refusal.value, 400, /#: has more than 1000 subschemas once its \$refs are expanded/);
    expect(concurrent.value.status).toBe(200);
    console.info(`refused the $ref chain in ${refusal.ms} ms; the other tenant's request took ${concurrent.ms} ms beside it, ${alone.ms} ms alone`);
    // Generous for a loaded machine: before the limits, this refusal took the process to gigabytes and minutes.
    expect(refusal.ms).toBeLessThan(5000);
    expect(concurrent.ms).toBeLessThan(5000);

    const inConfig = await setDefault(owner, p, 'chain', `base64://${Buffer.from(JSON.stringify(chain)).toString('base64')}`);
    expectOryError(inConfig, 400, /schemas\[0\] \("chain"\) is not a valid identity schema:\n#: has more than 1000 subschemas/);
    expect((await call(p.base, 'GET', '/schemas')).body.map((s: { id: string }) => s.id)).toEqual(['default']);
  });
});
