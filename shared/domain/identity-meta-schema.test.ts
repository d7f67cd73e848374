import { describe, expect, it } from 'vitest';
import { identitySchemaProblems, parseProblemsMessage, problemsMessage } from './identity-meta-schema';

const schema = (email: Record<string, unknown>) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { traits: { type: 'object', properties: { email: { type: 'string', format: 'email', ...email } }, required: ['email'] } },
});

describe('identitySchemaProblems', () => {
  it('accepts an identity schema with Ory’s extension', () => {
    const ext = { credentials: { password: { identifier: true }, code: { identifier: true, via: 'email' }, webauthn: { identifier: true }, passkey: { display_name: true }, totp: { account_name: true } }, verification: { via: 'email' }, recovery: { via: 'email' } };
    expect(identitySchemaProblems(schema({ 'ory.sh/kratos': ext }))).toEqual([]);
  });

  it('names the place of each problem', () => {
    expect(identitySchemaProblems(schema({ 'ory.sh/kratos': { verification: { via: 'fax' } } }))).toEqual([
      { pointer: '/properties/traits/properties/email/ory.sh~1kratos/verification/via', message: 'must be one of "email", "sms"' },
    ]);
    expect(identitySchemaProblems(schema({ 'ory.sh/kratos': { credentials: { password: { identifer: true } } } }))).toEqual([
      { pointer: '/properties/traits/properties/email/ory.sh~1kratos/credentials/password/identifer', message: 'is not a setting Ory knows here; remove it' },
    ]);
    expect(identitySchemaProblems(schema({ type: 'text' })).map((p) => p.pointer)).toContain('/properties/traits/properties/email/type');
    expect(identitySchemaProblems({ type: 'object' })).toEqual([{ pointer: '', message: 'must have the property "properties"' }]);
    expect(identitySchemaProblems({ properties: { traits: { type: 'string' } } })[0]).toMatchObject({ pointer: '/properties/traits' });
    expect(identitySchemaProblems([])).toEqual([{ pointer: '', message: 'an identity schema must be a JSON object' }]);
  });

  it('refuses a schema that does not compile', () => {
    const problems = identitySchemaProblems(schema({ $ref: '#/definitions/missing' }));
    expect(problems[0]?.message).toMatch(/does not compile/);
  });
});

describe('problemsMessage', () => {
  it('round-trips pointers with slashes, tildes, colons and spaces', () => {
    const problems = [
      { pointer: '/properties/a~1b/c~0d', message: 'must be x: really' },
      { pointer: '/properties/has space:colon', message: 'bad' },
      { pointer: '', message: 'whole' },
    ];
    expect(parseProblemsMessage(problemsMessage(problems))).toEqual(problems);
    expect(parseProblemsMessage('something else')).toEqual([{ pointer: '', message: 'something else' }]);
  });
});
