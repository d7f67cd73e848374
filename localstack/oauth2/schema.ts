import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/*
 * A project's authorization server keeps three things, each row scoped by `nid` (the project's id): its
 * clients (Hydra's client JSON, with the name and owner as columns for the admin API's filters), what
 * oidc-provider issues (codes, tokens, grants, sessions, interactions: one table, told apart by `kind`), and
 * its keys (the signing keys of its tokens and the secrets of its cookies). Keys and client secrets stay in
 * the database; nothing here is ever logged.
 */

const tstz = { withTimezone: true, mode: 'date' } as const;

export const oauth2Clients = pgTable(
  'oauth2_clients',
  {
    nid: uuid().notNull(),
    id: text().notNull(),
    client_name: text().notNull().default(''),
    owner: text().notNull().default(''),
    secret: text(),
    /** The rest of Hydra's client JSON. */
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    primaryKey({ name: 'oauth2_clients_pkey', columns: [t.nid, t.id] }),
    index('oauth2_clients_name').on(t.nid, t.client_name, t.id),
    index('oauth2_clients_owner').on(t.nid, t.owner, t.id),
  ],
);

export const oauth2Artefacts = pgTable(
  'oauth2_artefacts',
  {
    nid: uuid().notNull(),
    kind: text().notNull(),
    id: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    grant_id: text(),
    user_code: text(),
    uid: text(),
    expires_at: timestamp(tstz),
    consumed_at: timestamp(tstz),
  },
  (t) => [
    primaryKey({ name: 'oauth2_artefacts_pkey', columns: [t.nid, t.kind, t.id] }),
    index('oauth2_artefacts_grant').on(t.nid, t.grant_id),
    index('oauth2_artefacts_uid').on(t.nid, t.kind, t.uid),
    index('oauth2_artefacts_user_code').on(t.nid, t.kind, t.user_code),
    index('oauth2_artefacts_expiry').on(t.expires_at),
  ],
);

export const oauth2Keys = pgTable(
  'oauth2_keys',
  {
    nid: uuid().notNull(),
    kid: text().notNull(),
    /** `sig` for a token-signing key (a private JWK), `cookie` for a cookie-signing secret. */
    use: text().notNull(),
    jwk: jsonb().$type<Record<string, unknown>>(),
    secret: text(),
    created_at: timestamp(tstz).notNull(),
  },
  (t) => [primaryKey({ name: 'oauth2_keys_pkey', columns: [t.nid, t.kid] }), index('oauth2_keys_use').on(t.nid, t.use, t.created_at)],
);

export type OAuth2ClientRow = typeof oauth2Clients.$inferSelect;
