import { describe, expect, it } from 'vitest';
import { identityView, publicIdentityView } from './views';
import type { StoredIdentity } from './store';

const at = new Date('2026-01-02T03:04:05.000Z');
const stored = {
  row: {
    id: '11111111-1111-4111-8111-111111111111',
    nid: '22222222-2222-4222-8222-222222222222',
    schema_id: 'default',
    state: 'active',
    state_changed_at: at,
    traits: { email: 'ada@example.com' },
    metadata_public: { plan: 'x' },
    metadata_admin: { note: 'internal' },
    created_at: at,
    updated_at: at,
  },
  credentials: [{ type: 'password', identifier: 'ada@example.com', secret: '$argon2id$hash', created_at: at, updated_at: at }],
  verifiable: [],
  recovery: [],
} as unknown as StoredIdentity;

describe('identity views', () => {
  it('renders the public form without credentials or admin metadata, in the self-service field order', () => {
    const view = publicIdentityView(stored, 'https://p.example');
    expect(Object.keys(view)).toEqual([
      'id', 'schema_id', 'schema_url', 'state', 'state_changed_at', 'traits', 'verifiable_addresses',
      'recovery_addresses', 'metadata_public', 'created_at', 'updated_at', 'organization_id',
    ]);
    expect(JSON.stringify(view)).not.toContain('argon2id');
    expect(JSON.stringify(view)).not.toContain('internal');
  });

  it('renders the admin form from the same fields, with credentials and admin metadata', () => {
    const view = identityView(stored, 'https://p.example');
    expect(Object.keys(view)).toEqual([
      'id', 'schema_id', 'schema_url', 'state', 'state_changed_at', 'traits', 'credentials', 'verifiable_addresses',
      'recovery_addresses', 'metadata_public', 'metadata_admin', 'organization_id', 'created_at', 'updated_at',
    ]);
    const { credentials, metadata_admin, ...shared } = view;
    expect(credentials?.password?.identifiers).toEqual(['ada@example.com']);
    expect(credentials?.password?.config).toBeUndefined();
    expect(metadata_admin).toEqual({ note: 'internal' });
    expect(shared).toEqual(publicIdentityView(stored, 'https://p.example'));
    expect(identityView(stored, 'https://p.example', ['password']).credentials?.password?.config).toEqual({ hashed_password: '$argon2id$hash' });
  });
});
