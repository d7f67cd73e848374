import { describe, expect, it } from 'vitest';
import { traitIdentifiers, traitMarks } from './identity-schema-extension';

const schema = {
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: { type: 'string', 'ory.sh/kratos': { credentials: { password: { identifier: true } }, verification: { via: 'email' }, recovery: { via: 'email' } } },
        phone: { type: 'string', 'ory.sh/kratos': { credentials: { code: { identifier: true, via: 'sms' } }, verification: { via: 'sms' } } },
        backup: { type: 'array', items: { type: 'string' }, 'ory.sh/kratos': { recovery: { via: 'email' } } },
        name: { type: 'object', properties: { first: { type: 'string' } } },
      },
    },
  },
};

describe('traitMarks', () => {
  it('reads which traits sign in, are verified and recover', () => {
    expect(traitMarks(schema)).toEqual({
      passwordIdentifiers: ['email'],
      codeIdentifiers: [{ path: 'phone', via: 'sms' }],
      verification: [
        { path: 'email', via: 'email' },
        { path: 'phone', via: 'sms' },
      ],
      recovery: [
        { path: 'email', via: 'email' },
        { path: 'backup', via: 'email' },
      ],
    });
    expect(traitMarks({})).toEqual({ passwordIdentifiers: [], codeIdentifiers: [], verification: [], recovery: [] });
  });
});

describe('traitIdentifiers', () => {
  it('takes the identifier and addresses from the traits, normalized', () => {
    expect(traitIdentifiers(schema, { email: ' Ada@Example.COM ', phone: '+49 1', backup: ['b@example.com', 'ada@example.com'] })).toEqual({
      password: 'ada@example.com',
      verifiable: [
        { value: 'ada@example.com', via: 'email' },
        { value: '+49 1', via: 'sms' },
      ],
      recovery: [
        { value: 'ada@example.com', via: 'email' },
        { value: 'b@example.com', via: 'email' },
      ],
    });
  });

  it('has no identifier when the marked trait is empty', () => {
    expect(traitIdentifiers(schema, { phone: '' })).toEqual({ password: null, verifiable: [], recovery: [] });
  });
});
