import type { Migration } from './types';

/**
 * The hand-written migrations the local stack used before its schema moved to drizzle-kit, kept so that
 * a database created by an older release can be brought to the drizzle baseline: when `schema_migrations`
 * holds any of these ids, the missing ones are applied and the baseline is recorded as applied without
 * running it (it describes exactly the tables these create). Never edit or extend this list; schema
 * changes are new drizzle-kit migrations.
 */
export const legacyMigrations: Migration[] = [
  {
    id: 'id_0001_identities',
    sql: `
CREATE TABLE identities (
  id uuid PRIMARY KEY,
  schema_id text NOT NULL DEFAULT 'default',
  traits jsonb NOT NULL,
  state text NOT NULL DEFAULT 'active',
  state_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE identity_credentials (
  identity_id uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  type text NOT NULL,
  identifier text NOT NULL,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (identity_id, type)
);
CREATE UNIQUE INDEX identity_credentials_identifier ON identity_credentials (type, identifier);
CREATE TABLE identity_verifiable_addresses (
  id uuid PRIMARY KEY,
  identity_id uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  value text NOT NULL,
  verified boolean NOT NULL DEFAULT false,
  via text NOT NULL DEFAULT 'email',
  status text NOT NULL DEFAULT 'pending',
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identity_verifiable_addresses_value ON identity_verifiable_addresses (via, value);
CREATE TABLE identity_recovery_addresses (
  id uuid PRIMARY KEY,
  identity_id uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  value text NOT NULL,
  via text NOT NULL DEFAULT 'email',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identity_recovery_addresses_value ON identity_recovery_addresses (via, value);
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  logout_token_hash text NOT NULL UNIQUE,
  identity_id uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  active boolean NOT NULL DEFAULT true,
  aal text NOT NULL DEFAULT 'aal1',
  authentication_methods jsonb NOT NULL DEFAULT '[]',
  devices jsonb NOT NULL DEFAULT '[]',
  authenticated_at timestamptz NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_identity ON sessions (identity_id);
CREATE TABLE selfservice_flows (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  type text NOT NULL DEFAULT 'browser',
  state text NOT NULL,
  csrf_token text NOT NULL,
  request_url text NOT NULL,
  return_to text,
  identity_id uuid REFERENCES identities(id) ON DELETE CASCADE,
  ui jsonb NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE selfservice_codes (
  id uuid PRIMARY KEY,
  flow_id uuid NOT NULL REFERENCES selfservice_flows(id) ON DELETE CASCADE,
  kind text NOT NULL,
  identity_id uuid NOT NULL REFERENCES identities(id) ON DELETE CASCADE,
  address text NOT NULL,
  code_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX selfservice_codes_flow ON selfservice_codes (flow_id);
CREATE TABLE selfservice_errors (
  id uuid PRIMARY KEY,
  error jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE courier_messages (
  id uuid PRIMARY KEY,
  type text NOT NULL DEFAULT 'email',
  status text NOT NULL DEFAULT 'sent',
  recipient text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  template_type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX courier_messages_recipient ON courier_messages (recipient, created_at DESC);
`,
  },
  {
    id: 'cp_0001_workspaces',
    sql: `
CREATE TABLE workspaces (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  access_policy text NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX workspaces_created_at_idx ON workspaces (created_at, id);
CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'developer')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, identity_id)
);
CREATE INDEX workspace_members_identity_idx ON workspace_members (identity_id);
`,
  },
  {
    id: 'cp_0002_projects',
    sql: `
CREATE TABLE projects (
  id uuid PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'halted', 'deleted')),
  environment text NOT NULL CHECK (environment IN ('prod', 'stage', 'dev')),
  home_region text NOT NULL DEFAULT 'eu-central',
  workspace_id uuid NULL REFERENCES workspaces (id) ON DELETE SET NULL,
  subscription_id text NULL,
  current_revision_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX projects_workspace_idx ON projects (workspace_id, created_at, id);
CREATE TABLE project_revisions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  services jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL
);
CREATE INDEX project_revisions_project_idx ON project_revisions (project_id, created_at);
CREATE TABLE project_members (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'developer')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, identity_id)
);
CREATE INDEX project_members_identity_idx ON project_members (identity_id);
CREATE TABLE console_active_project (
  identity_id uuid PRIMARY KEY REFERENCES identities (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  updated_at timestamptz NOT NULL
);
`,
  },
];
