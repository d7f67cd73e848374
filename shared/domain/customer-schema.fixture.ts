/** An identity schema with every kind of trait the console's forms and validation handle, for their tests. */
export const customerSchema = {
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
