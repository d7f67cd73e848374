import { describe, expect, it } from 'vitest';
import { base64SchemaUrl, declaredSchemas, defaultSchemaPatch, schemaOfUrl } from './identity-schema-config';

const custom = { id: '0b9c…', url: base64SchemaUrl({ title: 'Kunde ü' }) };

describe('schemaOfUrl', () => {
  it('reads back what base64SchemaUrl wrote, UTF-8 included', () => {
    expect(schemaOfUrl(custom.url)).toEqual({ title: 'Kunde ü' });
    expect(schemaOfUrl('https://example.com/schema.json')).toBeNull();
    expect(schemaOfUrl('base64://not json')).toBeNull();
    expect(schemaOfUrl(base64SchemaUrl([1]))).toBeNull();
  });
});

describe('defaultSchemaPatch', () => {
  it('adds the identity config where a project has none', () => {
    expect(defaultSchemaPatch({ identity: { config: {} } }, custom.id, [custom])).toEqual([
      { op: 'add', path: '/services/identity/config/identity', value: { schemas: [custom], default_schema_id: custom.id } },
    ]);
    expect(defaultSchemaPatch({}, custom.id, [custom])).toEqual([
      { op: 'add', path: '/services/identity', value: { config: { identity: { schemas: [custom], default_schema_id: custom.id } } } },
    ]);
  });

  it('keeps the declared schemas and the rest of the identity config, adding the new one once', () => {
    const services = { identity: { config: { identity: { schemas: [{ id: 'email', url: 'preset://email' }], default_schema_id: 'email' }, courier: {} } } };
    expect(defaultSchemaPatch(services, custom.id, [custom])).toEqual([
      { op: 'add', path: '/services/identity/config/identity/schemas', value: [{ id: 'email', url: 'preset://email' }, custom] },
      { op: 'add', path: '/services/identity/config/identity/default_schema_id', value: custom.id },
    ]);
    expect(defaultSchemaPatch(services, 'email', [])?.[0]?.value).toEqual([{ id: 'email', url: 'preset://email' }]);
    expect(declaredSchemas(services)).toEqual([{ id: 'email', url: 'preset://email' }]);
  });

  it('answers null for a schema the project does not have', () => {
    expect(defaultSchemaPatch({ identity: { config: {} } }, 'nope', [custom])).toBeNull();
    expect(defaultSchemaPatch({ identity: { config: {} } }, 'default', [])).not.toBeNull();
  });
});
