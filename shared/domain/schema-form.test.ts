import { describe, expect, it } from 'vitest';
import { coerce, schemaFields, traitErrorsOfReason, valueAt, withValue } from './schema-form';
import { customerSchema } from './customer-schema.fixture';

const schema = customerSchema;

describe('the form of an identity schema', () => {
  it('turns the traits into fields: types, formats, required, enums, nested objects and lists', () => {
    const fields = schemaFields(schema);
    expect(fields.map((f) => [f.path, f.kind, f.required])).toEqual([
      ['email', 'email', true],
      ['name', 'object', true],
      ['plan', 'select', false],
      ['age', 'integer', false],
      ['newsletter', 'boolean', false],
      ['tags', 'list', false],
      ['website', 'url', false],
    ]);
    expect(fields[0]).toMatchObject({ label: 'E-Mail', identifier: true });
    expect(fields[1]!.fields.map((f) => [f.path, f.label, f.required, f.minLength ?? f.maxLength])).toEqual([
      ['name.first', 'First name', true, 1],
      ['name.last', 'last', false, 5],
    ]);
    expect(fields[2]!.options).toEqual(['free', 'pro']);
    expect(fields[4]!.description).toBe('Sends the monthly letter');
    expect(schemaFields({ type: 'object' })).toEqual([]);
  });

  it('reads and writes nested values without losing other traits, dropping emptied ones', () => {
    const traits = { email: 'a@example.com', custom: { kept: true } };
    const named = withValue(traits, 'name.first', 'Ada');
    expect(named).toEqual({ email: 'a@example.com', custom: { kept: true }, name: { first: 'Ada' } });
    expect(valueAt(named, 'name.first')).toBe('Ada');
    expect(withValue(named, 'name.first', '')).toEqual(traits);
    expect(traits).toEqual({ email: 'a@example.com', custom: { kept: true } });
  });

  it('turns typed text into numbers where the field is numeric', () => {
    expect(coerce({ kind: 'integer' }, '42')).toBe(42);
    expect(coerce({ kind: 'number' }, 'x')).toBe('x');
    expect(coerce({ kind: 'text' }, '42')).toBe('42');
  });

  it('puts an identity provider refusal on the fields it names', () => {
    expect(traitErrorsOfReason('The traits do not match the identity schema: traits.email: must match format "email"; traits.name.first: is required')).toEqual({
      email: 'Must match format "email"',
      'name.first': 'Is required',
    });
    expect(traitErrorsOfReason('An identity with this email exists already.')).toEqual({ '': 'An identity with this email exists already.' });
  });
});
