import { describe, expect, it } from 'vitest';
import { validateTraits } from './traits-validation';
import { customerSchema } from './customer-schema.fixture';

const schema = customerSchema;

describe('traits validation (ajv, as the identity provider runs it)', () => {
  it('validates with ajv and names each failing field by its path', () => {
    expect(validateTraits(schema, { email: 'a@example.com', name: { first: 'Ada' } })).toEqual({});
    expect(validateTraits(schema, { email: 'not-an-email', name: { last: 'Lovelace' }, plan: 'gold', age: 12, shoe: 42 })).toEqual({
      email: 'Must be a valid email',
      'name.first': 'Required',
      'name.last': 'Must be at most 5 characters',
      plan: 'Choose one of the options',
      age: 'Must be at least 18',
      shoe: 'Is not a trait of this schema',
    });
    expect(validateTraits(schema, { email: 'a@example.com', name: { first: 'A' }, age: 'twenty' })).toEqual({ age: 'Must be a whole number' });
  });

});
