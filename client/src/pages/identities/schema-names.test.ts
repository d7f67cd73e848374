import { describe, expect, it } from 'vitest';
import type { SchemasList } from '../../../../shared/schemas/identity-schemas';
import { schemaNamer } from './schema-names';

const uuid = '6f1c8f5e-0a7b-4a57-9d4c-3f6b1f0e2a11';
const list: SchemasList = {
  defaultId: uuid,
  active: [
    { id: uuid, schema: { title: 'Person' }, source: 'managed' },
    { id: 'partners', schema: { title: 'Partner' }, source: 'config' },
    { id: 'untitled', schema: {}, source: 'config' },
  ],
  managed: [{ id: uuid, name: 'Customers', createdAt: '', updatedAt: '', contentHash: null, schema: {}, text: '{}' }],
  presets: [{ id: 'preset://email', title: 'Email', schema: {} }],
};

describe('schemaNamer', () => {
  it('names a schema by its managed name, preset title or own title, never by a UUID when it has a name', () => {
    const name = schemaNamer(list);
    expect(name(uuid)).toBe('Customers');
    expect(name('preset://email')).toBe('Email');
    expect(name('partners')).toBe('Partner');
    expect(name('untitled')).toBe('untitled');
    expect(name('default')).toBe('Customers');
    expect(schemaNamer({ ...list, defaultId: 'default' })('default')).toBe('default');
    expect(schemaNamer(undefined)(uuid)).toBe(uuid);
  });
});
