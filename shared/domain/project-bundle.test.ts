import { describe, expect, it } from 'vitest';
import { bundleSummary, remapSchemaIds, summaryOfCounts, tooMany } from './project-bundle';

describe('project file', () => {
  it('says what a file holds, leaving out identities it was exported without', () => {
    const file = { identity_schemas: [{}], themes: [{}, {}], oauth2_clients: [], relation_tuples: Array.from({ length: 1234 }, () => ({})) };
    expect(bundleSummary(file).map((s) => s.text)).toEqual(['1 identity schema', '2 branding themes', '0 OAuth2 clients', '1,234 relationships']);
    expect(summaryOfCounts({ identities: 1 }).map((s) => s.text)).toEqual(['1 identity']);
    expect(tooMany('relation_tuples')).toMatch(/at most 5,000 relationships/);
  });

  it('gives the declared schemas and the default the new ids of managed schemas, and keeps every other field', () => {
    const services = {
      identity: {
        config: { identity: { schemas: [{ id: 'old', url: 'base64://e30=' }, { id: 'preset://email', url: 'base64://e30=' }], default_schema_id: 'old' }, courier: { x: 1 } },
        other: true,
      },
      permission: { config: {} },
    };
    const remapped = remapSchemaIds(services, new Map([['old', 'new']]));
    expect(remapped).toEqual({
      identity: {
        config: { identity: { schemas: [{ id: 'new', url: 'base64://e30=' }, { id: 'preset://email', url: 'base64://e30=' }], default_schema_id: 'new' }, courier: { x: 1 } },
        other: true,
      },
      permission: { config: {} },
    });
    expect(services.identity.config.identity.default_schema_id).toBe('old');
    expect(remapSchemaIds({}, new Map([['old', 'new']]))).toEqual({});
  });
});
