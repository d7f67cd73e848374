import { describe, expect, it } from 'vitest';
import { createWireValidator, loadOrySpecs, matchTemplate, wirePath, type OpenApiDoc, type WireAnswer } from './wire-conformance';

/** A tiny OpenAPI 3.0 document with the constructs Ory's spec uses. */
const doc: OpenApiDoc = {
  paths: {
    '/things': { get: { operationId: 'listThings', responses: { 200: json({ type: 'array', items: ref('thing') }) } } },
    '/things/{id}': {
      get: { operationId: 'getThing', responses: { 200: json(ref('thing')), default: json(ref('errorGeneric')) } },
      delete: { operationId: 'deleteThing', responses: { 204: { $ref: '#/components/responses/empty' } } },
    },
    '/things/mine': { get: { operationId: 'getMyThing', responses: { 200: json(ref('errorGeneric')) } } },
  },
  components: {
    responses: { empty: {} },
    schemas: {
      thing: {
        type: 'object',
        required: ['id', 'name', 'shape'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          note: { type: 'string', nullable: true },
          shape: ref('shape'),
        },
      },
      shape: {
        oneOf: [ref('circle'), ref('square')],
        discriminator: { propertyName: 'kind', mapping: { circle: '#/components/schemas/circle', square: '#/components/schemas/square' } },
      },
      circle: { type: 'object', required: ['kind', 'radius'], properties: { kind: { type: 'string', enum: ['circle'] }, radius: { type: 'number' } } },
      square: { type: 'object', required: ['kind', 'side'], properties: { kind: { type: 'string', enum: ['square'] }, side: { type: 'number' } } },
      errorGeneric: { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } } },
      counts: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
    },
  },
};

function json(schema: unknown) {
  return { content: { 'application/json': { schema } } };
}
function ref(name: string) {
  return { $ref: `#/components/schemas/${name}` };
}

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const good = { id: ID, name: 'a', note: null, shape: { kind: 'circle', radius: 2 } };

function answer(over: Partial<WireAnswer> & { json?: unknown }): WireAnswer {
  const { json: value, ...rest } = over;
  return {
    method: 'GET',
    url: `/things/${ID}`,
    route: '/things/:id',
    status: 200,
    contentType: 'application/json; charset=utf-8',
    body: value === undefined ? '' : JSON.stringify(value),
    ...rest,
  };
}

const validator = createWireValidator({
  specs: [{ id: 'test-spec', doc }],
  orphans: [
    { method: 'GET', path: '/things/{id}/counts', responses: { 200: 'counts', default: 'errorGeneric' } },
    { method: 'GET', path: '/local/page', localOnly: 'a page for people' },
  ],
  allowlist: [
    { method: 'GET', path: '/things/{id}', status: 200, instancePath: '/shape/radius', reason: 'the spec says number, servers send strings' },
    { method: 'GET', path: '/things', status: 200, alternative: 'errorGeneric', reason: 'servers also answer an error with 200' },
  ],
});

describe('the wire check', () => {
  it('passes a body that matches the response schema, with null for a nullable field and extra fields', () => {
    expect(validator.check(answer({ json: good })).kind).toBe('valid');
    expect(validator.check(answer({ json: { ...good, extra: true } })).kind).toBe('valid');
  });

  it('fails a body missing a required field, with the field named', () => {
    const { name: _name, ...noName } = good;
    const outcome = validator.check(answer({ json: noName }));
    expect(outcome).toMatchObject({ kind: 'mismatch', problems: [{ instancePath: '', message: expect.stringContaining("'name'") }] });
  });

  it('fails a wrong type, a bad format and null where the spec has no nullable', () => {
    expect(validator.check(answer({ json: { ...good, name: 3 } }))).toMatchObject({ kind: 'mismatch', problems: [{ instancePath: '/name' }] });
    expect(validator.check(answer({ json: { ...good, id: 'not-a-uuid' } }))).toMatchObject({ kind: 'mismatch', problems: [{ instancePath: '/id' }] });
    expect(validator.check(answer({ json: { ...good, name: null } }))).toMatchObject({ kind: 'mismatch', problems: [{ instancePath: '/name' }] });
  });

  it('checks a discriminated union against the variant its tag names, and rejects unknown tags', () => {
    expect(validator.check(answer({ json: { ...good, shape: { kind: 'square', side: 1 } } })).kind).toBe('valid');
    expect(validator.check(answer({ json: { ...good, shape: { kind: 'square', radius: 1 } } }))).toMatchObject({
      kind: 'mismatch',
      problems: [{ instancePath: '/shape', message: expect.stringContaining("'side'") }],
    });
    expect(validator.check(answer({ json: { ...good, shape: { kind: 'triangle' } } }))).toMatchObject({ kind: 'mismatch', problems: [{ instancePath: '/shape/kind' }] });
  });

  it('uses the default response for undeclared statuses and fails a status with neither', () => {
    expect(validator.check(answer({ status: 404, json: { error: { message: 'gone' } } })).kind).toBe('valid');
    expect(validator.check(answer({ status: 404, json: { message: 'gone' } })).kind).toBe('mismatch');
    const undeclared = validator.check(answer({ url: '/things', route: '/things', status: 500, json: {} }));
    expect(undeclared).toMatchObject({ kind: 'mismatch', problems: [{ message: expect.stringContaining('status 500') }] });
  });

  it('wants no body where the spec declares none, and JSON where it declares JSON', () => {
    expect(validator.check(answer({ method: 'DELETE', status: 204 })).kind).toBe('valid');
    expect(validator.check(answer({ method: 'DELETE', status: 204, json: {} })).kind).toBe('mismatch');
    expect(validator.check(answer({ contentType: 'text/html', body: '<p>hi</p>' })).kind).toBe('mismatch');
    expect(validator.check(answer({ body: '{not json' })).kind).toBe('mismatch');
  });

  it('matches concrete paths to templates, preferring literal segments, past the per-project base path', () => {
    const templates = [
      { method: 'GET', path: '/things/{id}' },
      { method: 'GET', path: '/things/mine' },
      { method: 'DELETE', path: '/things/{id}' },
    ];
    expect(matchTemplate(templates, 'get', '/things/mine')?.path).toBe('/things/mine');
    expect(matchTemplate(templates, 'GET', `/things/${ID}`)?.path).toBe('/things/{id}');
    expect(matchTemplate(templates, 'GET', `/things/${ID}/more`)).toBeUndefined();
    expect(matchTemplate(templates, 'PUT', `/things/${ID}`)).toBeUndefined();
    expect(wirePath(`/project-api/my-slug/things/${ID}?x=1`)).toBe(`/things/${ID}`);
    expect(wirePath('/things?page_size=2')).toBe('/things');
    expect(validator.check(answer({ url: '/things/mine', json: { error: { message: 'x' } } })).kind).toBe('valid');
    expect(validator.check(answer({ url: `/project-api/my-slug/things/${ID}`, json: good })).kind).toBe('valid');
  });

  it('checks orphan routes against their table schema, skips local-only routes, and fails unmapped answers', () => {
    expect(validator.check(answer({ url: `/things/${ID}/counts`, json: { count: 2 } })).kind).toBe('valid');
    expect(validator.check(answer({ url: `/things/${ID}/counts`, json: { count: 'two' } })).kind).toBe('mismatch');
    expect(validator.check(answer({ url: '/local/page', contentType: 'text/html', body: '<p>hi</p>' })).kind).toBe('local-only');
    const unmapped = validator.check(answer({ url: '/elsewhere', route: '/elsewhere', json: {} }));
    expect(unmapped).toMatchObject({ kind: 'mismatch', problems: [{ message: expect.stringContaining('unmapped answer') }] });
  });

  it('checks the answer of an unknown route as an error body', () => {
    expect(validator.check(answer({ url: '/nowhere', route: null, status: 404, json: { error: { message: 'No route' } } })).kind).toBe('valid');
    expect(validator.check(answer({ url: '/nowhere', route: null, status: 404, json: { message: 'No route' } })).kind).toBe('mismatch');
  });

  it('lets an allowlisted problem pass only where its entry says, and never with other problems', () => {
    const radiusAsText = { ...good, shape: { kind: 'circle', radius: '2' } };
    expect(validator.check(answer({ json: radiusAsText }))).toEqual({
      kind: 'allowlisted',
      operation: expect.any(String),
      reasons: ['the spec says number, servers send strings'],
    });
    expect(validator.check(answer({ json: { ...radiusAsText, name: 1 } })).kind).toBe('mismatch');
    expect(validator.check(answer({ status: 201, json: radiusAsText })).kind).toBe('mismatch');
  });

  it('accepts an alternative schema only where its entry says, and only a body that matches it', () => {
    const list = { url: '/things', route: '/things' };
    expect(validator.check(answer({ ...list, json: { error: { message: 'x' } } }))).toMatchObject({
      kind: 'allowlisted',
      reasons: ['servers also answer an error with 200'],
    });
    expect(validator.check(answer({ ...list, json: { error: {} } })).kind).toBe('mismatch');
    expect(validator.check(answer({ json: { error: { message: 'x' } } })).kind).toBe('mismatch');
  });
});

describe("Ory's published spec", () => {
  const ory = createWireValidator({ specs: loadOrySpecs() });
  const error = { error: { code: 404, status: 'Not Found', message: 'The requested resource could not be found', reason: 'No such project.' } };

  it('accepts errorGeneric for a console call and rejects a bare message', () => {
    const base = { method: 'GET', url: `/projects/${ID}`, route: '/projects/:project_id', status: 404, contentType: 'application/json' };
    expect(ory.check({ ...base, body: JSON.stringify(error) }).kind).toBe('valid');
    expect(ory.check({ ...base, body: JSON.stringify({ message: 'gone' }) }).kind).toBe('mismatch');
  });

  it('finds routes only the historical spec has (the console active project)', () => {
    const base = { method: 'GET', url: '/console/active/project', route: '/console/active/project', status: 200, contentType: 'application/json' };
    const outcome = ory.check({ ...base, body: JSON.stringify({ project_id: ID }) });
    expect(outcome).toMatchObject({ kind: 'valid', operation: expect.stringContaining('v1.11.7') });
  });

  it('checks the login flow UI nodes by their node_type', () => {
    const node = (attributes: unknown) => ({ type: 'input', group: 'default', attributes, messages: [], meta: {} });
    const flow = (attributes: unknown) => ({
      id: ID,
      type: 'browser',
      expires_at: '2026-01-01T00:00:00Z',
      issued_at: '2026-01-01T00:00:00Z',
      request_url: 'http://localhost/self-service/login/browser',
      state: 'choose_method',
      ui: { action: 'http://localhost/self-service/login', method: 'POST', nodes: [node(attributes)] },
    });
    const base = { method: 'GET', url: '/self-service/login/flows?id=x', route: '/self-service/login/flows', status: 200, contentType: 'application/json' };
    const csrf = { node_type: 'input', name: 'csrf_token', type: 'hidden', value: 'x', required: true, disabled: false };
    expect(ory.check({ ...base, body: JSON.stringify(flow(csrf)) }).kind).toBe('valid');
    expect(ory.check({ ...base, body: JSON.stringify(flow({ ...csrf, type: 'secret' })) })).toMatchObject({
      kind: 'mismatch',
      problems: [{ instancePath: '/ui/nodes/0/attributes/type' }],
    });
  });
});
