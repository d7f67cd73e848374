import { describe, expect, it } from 'vitest';
import { validateTraits } from './traits-validation';

const schema = {
  $id: 'customer',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', title: 'E-Mail', 'ory.sh/kratos': { credentials: { password: { identifier: true } } } },
        name: {
          type: 'object',
          title: 'Name',
          properties: { first: { type: 'string', title: 'First name', minLength: 1 }, last: { type: 'string', maxLength: 5 } },
          required: ['first'],
        },
        plan: { type: 'string', enum: ['free', 'pro'] },
        age: { type: 'integer', minimum: 18 },
        newsletter: { type: 'boolean', description: 'Sends the monthly letter' },
        tags: { type: 'array', items: { type: 'string' } },
        website: { type: 'string', format: 'uri' },
      },
      required: ['email', 'name'],
      additionalProperties: false,
    },
  },
};

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
