import type { IdentitySchemaPreset } from '@ory/client';

/*
 * Ory's identity schema presets (GET /presets/identity/schemas): what a project starts from. Each is a
 * JSON schema (draft-07) whose traits carry Ory's `ory.sh/kratos` extension.
 */

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const email = (ext: Record<string, unknown>) => ({
  type: 'string',
  format: 'email',
  title: 'Email',
  minLength: 3,
  maxLength: 320,
  'ory.sh/kratos': ext,
});

const traitsOf = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties: { traits: { type: 'object', properties, required, additionalProperties: false } },
});

export const IDENTITY_SCHEMA_PRESETS: IdentitySchemaPreset[] = [
  {
    url: 'preset://email',
    schema: {
      $id: 'https://schemas.ory.sh/presets/kratos/identity.email.schema.json',
      $schema: DRAFT_07,
      title: 'Person',
      ...traitsOf(
        {
          email: email({
            credentials: { password: { identifier: true }, webauthn: { identifier: true }, totp: { account_name: true }, code: { identifier: true, via: 'email' }, passkey: { display_name: true } },
            recovery: { via: 'email' },
            verification: { via: 'email' },
          }),
        },
        ['email'],
      ),
    },
  },
  {
    url: 'preset://email-password',
    schema: {
      $id: 'https://schemas.ory.sh/presets/kratos/identity.email-password.schema.json',
      $schema: DRAFT_07,
      title: 'Person',
      ...traitsOf(
        { email: email({ credentials: { password: { identifier: true } }, recovery: { via: 'email' }, verification: { via: 'email' } }) },
        ['email'],
      ),
    },
  },
  {
    url: 'preset://username',
    schema: {
      $id: 'https://schemas.ory.sh/presets/kratos/identity.username.schema.json',
      $schema: DRAFT_07,
      title: 'Person',
      ...traitsOf(
        {
          username: {
            type: 'string',
            title: 'Username',
            minLength: 3,
            maxLength: 100,
            'ory.sh/kratos': { credentials: { password: { identifier: true }, webauthn: { identifier: true }, totp: { account_name: true }, passkey: { display_name: true } } },
          },
        },
        ['username'],
      ),
    },
  },
  {
    url: 'preset://phone',
    schema: {
      $id: 'https://schemas.ory.sh/presets/kratos/identity.phone.schema.json',
      $schema: DRAFT_07,
      title: 'Person',
      ...traitsOf(
        {
          phone: {
            type: 'string',
            format: 'tel',
            title: 'Phone number',
            minLength: 3,
            maxLength: 32,
            'ory.sh/kratos': {
              credentials: { password: { identifier: true }, code: { identifier: true, via: 'sms' } },
              verification: { via: 'sms' },
            },
          },
        },
        ['phone'],
      ),
    },
  },
  {
    url: 'preset://email-name',
    schema: {
      $id: 'https://schemas.ory.sh/presets/kratos/identity.email-name.schema.json',
      $schema: DRAFT_07,
      title: 'Person',
      ...traitsOf(
        {
          email: email({
            credentials: { password: { identifier: true }, webauthn: { identifier: true }, totp: { account_name: true }, code: { identifier: true, via: 'email' } },
            recovery: { via: 'email' },
            verification: { via: 'email' },
          }),
          name: {
            type: 'object',
            title: 'Name',
            properties: {
              first: { type: 'string', title: 'First name', maxLength: 256 },
              last: { type: 'string', title: 'Last name', maxLength: 256 },
            },
          },
        },
        ['email'],
      ),
    },
  },
];

export const presetByUrl = (url: string) => IDENTITY_SCHEMA_PRESETS.find((p) => p.url === url);
