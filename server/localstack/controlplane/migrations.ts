/**
 * Control-plane tables of the local stack, applied after the identity migrations (they reference
 * `identities`). Timestamps are written by the application with millisecond precision so that
 * (created_at, id) page tokens round-trip exactly.
 */
export const controlPlaneMigrations: { id: string; sql: string }[] = [
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
