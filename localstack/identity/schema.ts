import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { FlowKind, FlowUi } from '../kernel/flow-ui';
import { identities, sessions } from '../kernel/tables';

export { identities, sessions } from '../kernel/tables';
export type { IdentityRow, SessionRow } from '../kernel/tables';

/*
 * Identity-provider tables of the local stack. Property names equal column names, so rows read through
 * drizzle and rows read by the remaining raw SQL have the same shape. Constraints carry the names
 * PostgreSQL gave them in the original hand-written migration, so databases created either way are equal
 * and later migrations can alter them by name.
 *
 * Every table carries `nid` (Kratos' network id): the tenant a row belongs to. The console's own tenant has
 * the fixed CONSOLE_NID (tenant-id.ts), a project's tenant the project's id. Every query is scoped by it, and
 * uniqueness Kratos keeps per network (credential identifiers, addresses) is per nid here too; session
 * token hashes stay unique across tenants.
 */

const tstz = { withTimezone: true, mode: 'date' } as const;

export const identityCredentials = pgTable(
  'identity_credentials',
  {
    nid: uuid().notNull(),
    identity_id: uuid().notNull(),
    type: text().notNull(),
    identifier: text().notNull(),
    secret: text().notNull(),
    created_at: timestamp(tstz).notNull().defaultNow(),
    updated_at: timestamp(tstz).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'identity_credentials_pkey', columns: [t.identity_id, t.type] }),
    foreignKey({ name: 'identity_credentials_identity_id_fkey', columns: [t.identity_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
    uniqueIndex('identity_credentials_identifier').on(t.nid, t.type, t.identifier),
  ],
);

export const identityVerifiableAddresses = pgTable(
  'identity_verifiable_addresses',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    identity_id: uuid().notNull(),
    value: text().notNull(),
    verified: boolean().notNull().default(false),
    via: text().notNull().default('email'),
    status: text().notNull().default('pending'),
    verified_at: timestamp(tstz),
    created_at: timestamp(tstz).notNull().defaultNow(),
    updated_at: timestamp(tstz).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'identity_verifiable_addresses_identity_id_fkey',
      columns: [t.identity_id],
      foreignColumns: [identities.id],
    }).onDelete('cascade'),
    uniqueIndex('identity_verifiable_addresses_value').on(t.nid, t.via, t.value),
  ],
);

export const identityRecoveryAddresses = pgTable(
  'identity_recovery_addresses',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    identity_id: uuid().notNull(),
    value: text().notNull(),
    via: text().notNull().default('email'),
    created_at: timestamp(tstz).notNull().defaultNow(),
    updated_at: timestamp(tstz).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'identity_recovery_addresses_identity_id_fkey',
      columns: [t.identity_id],
      foreignColumns: [identities.id],
    }).onDelete('cascade'),
    uniqueIndex('identity_recovery_addresses_value').on(t.nid, t.via, t.value),
  ],
);

export const selfserviceFlows = pgTable(
  'selfservice_flows',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    kind: text().$type<FlowKind>().notNull(),
    type: text().notNull().default('browser'),
    state: text().notNull(),
    csrf_token: text().notNull(),
    request_url: text().notNull(),
    return_to: text(),
    identity_id: uuid(),
    ui: jsonb().$type<FlowUi>().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    issued_at: timestamp(tstz).notNull(),
    expires_at: timestamp(tstz).notNull(),
    created_at: timestamp(tstz).notNull().defaultNow(),
    updated_at: timestamp(tstz).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'selfservice_flows_identity_id_fkey', columns: [t.identity_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
  ],
);

export const selfserviceCodes = pgTable(
  'selfservice_codes',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    flow_id: uuid().notNull(),
    kind: text().notNull(),
    /** Null for a sign-up code: its identity is created only once the code is redeemed. */
    identity_id: uuid(),
    address: text().notNull(),
    code_hash: text().notNull(),
    expires_at: timestamp(tstz).notNull(),
    used_at: timestamp(tstz),
    created_at: timestamp(tstz).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'selfservice_codes_flow_id_fkey', columns: [t.flow_id], foreignColumns: [selfserviceFlows.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ name: 'selfservice_codes_identity_id_fkey', columns: [t.identity_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
    index('selfservice_codes_flow').on(t.flow_id),
  ],
);

/**
 * A tenant's SAML service-provider key: it signs the AuthnRequests and logout messages the tenant sends and
 * decrypts the assertions identity providers encrypt to it; its certificate is in the tenant's SP metadata.
 * One per tenant, made on first use; the private key stays in the database, never in a log or an answer.
 */
export const samlSpKeys = pgTable(
  'saml_sp_keys',
  {
    nid: uuid().notNull(),
    private_key: text().notNull(),
    certificate: text().notNull(),
    created_at: timestamp(tstz).notNull(),
  },
  (t) => [primaryKey({ name: 'saml_sp_keys_pkey', columns: [t.nid] })],
);

/**
 * The SAML side of a session signed in through an identity provider: what single logout names it by (the
 * assertion's subject and session index). It goes with the session (ON DELETE CASCADE).
 */
export const samlSessions = pgTable(
  'saml_sessions',
  {
    nid: uuid().notNull(),
    session_id: uuid().notNull(),
    provider: text().notNull(),
    name_id: text().notNull(),
    name_id_format: text(),
    session_index: text(),
  },
  (t) => [
    primaryKey({ name: 'saml_sessions_pkey', columns: [t.session_id] }),
    foreignKey({ name: 'saml_sessions_session_id_fkey', columns: [t.session_id], foreignColumns: [sessions.id] }).onDelete('cascade'),
    index('saml_sessions_subject').on(t.nid, t.provider, t.name_id),
  ],
);

export const selfserviceErrors = pgTable('selfservice_errors', {
  id: uuid().primaryKey(),
  nid: uuid().notNull(),
  error: jsonb().notNull(),
  created_at: timestamp(tstz).notNull().defaultNow(),
});

export const courierMessages = pgTable(
  'courier_messages',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    type: text().notNull().default('email'),
    status: text().notNull().default('sent'),
    recipient: text().notNull(),
    subject: text().notNull(),
    body: text().notNull(),
    template_type: text().notNull(),
    /** The HTML body of an email (sent as the alternative to `body`, and as `html_body` over HTTP). */
    html_body: text(),
    /** The template's data in Kratos' JSON names (`recovery_code`, `to`, …): `template_data` of an HTTP delivery. */
    template_data: jsonb().$type<Record<string, unknown>>(),
    /** Dispatch attempts so far; past the tenant's `courier.message_retries` a failing message is abandoned. */
    send_count: integer().notNull().default(0),
    created_at: timestamp(tstz).notNull().defaultNow(),
    updated_at: timestamp(tstz).notNull().defaultNow(),
  },
  (t) => [
    index('courier_messages_queue').on(t.status, t.created_at),
    index('courier_messages_recipient').on(t.nid, t.recipient, t.created_at.desc().nullsFirst()),
    index('courier_messages_nid').on(t.nid, t.created_at.desc().nullsFirst(), t.id),
  ],
);

/** Each attempt at delivering a courier message (Ory's MessageDispatch): success, or failed with its error. */
export const courierMessageDispatches = pgTable(
  'courier_message_dispatches',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    message_id: uuid().notNull(),
    status: text().notNull(),
    error: jsonb(),
    created_at: timestamp(tstz).notNull().defaultNow(),
    updated_at: timestamp(tstz).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'courier_message_dispatches_message_id_fkey', columns: [t.message_id], foreignColumns: [courierMessages.id] }).onDelete(
      'cascade',
    ),
    index('courier_message_dispatches_message').on(t.message_id, t.created_at),
  ],
);

export type IdentityCredentialRow = typeof identityCredentials.$inferSelect;
export type VerifiableAddressRow = typeof identityVerifiableAddresses.$inferSelect;
export type RecoveryAddressRow = typeof identityRecoveryAddresses.$inferSelect;
export type SelfserviceFlowRow = typeof selfserviceFlows.$inferSelect;
export type SelfserviceCodeRow = typeof selfserviceCodes.$inferSelect;
export type SelfserviceErrorRow = typeof selfserviceErrors.$inferSelect;
export type CourierMessageRow = typeof courierMessages.$inferSelect;
export type CourierDispatchRow = typeof courierMessageDispatches.$inferSelect;
