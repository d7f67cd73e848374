/**
 * Identity schemas for tests: the email trait every one of them starts from (the password identifier,
 * verified and recovered by email) and a draft-07 schema of traits around it.
 */
export const emailTrait = (verificationVia = 'email') => ({
  type: 'string',
  format: 'email',
  title: 'Email',
  'ory.sh/kratos': { credentials: { password: { identifier: true } }, verification: { via: verificationVia }, recovery: { via: 'email' } },
});

export function identitySchemaOf(
  properties: Record<string, unknown>,
  required: string[],
  options: { title?: string; additionalProperties?: boolean } = {},
): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    ...(options.title ? { title: options.title } : {}),
    type: 'object',
    properties: {
      traits: {
        type: 'object',
        properties,
        required,
        ...(options.additionalProperties === undefined ? {} : { additionalProperties: options.additionalProperties }),
      },
    },
  };
}
