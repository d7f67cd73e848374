import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/types';
import { identityJson } from './identities';
import type { UiNode } from './nodes';
import type { UiText } from './texts';
import { CONSOLE_NID } from './tenant-id';

export type FlowKind = 'login' | 'registration' | 'settings' | 'recovery' | 'verification';

export interface FlowUi {
  nodes: UiNode[];
  messages?: UiText[];
}

export interface FlowRow {
  id: string;
  kind: FlowKind;
  type: string;
  state: string;
  csrf_token: string;
  request_url: string;
  return_to: string | null;
  identity_id: string | null;
  ui: FlowUi;
  data: Record<string, unknown>;
  issued_at: Date;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface NewFlow {
  kind: FlowKind;
  /** 'api' flows (native apps) carry no anti-CSRF token and end in a session token. Default 'browser'. */
  type?: 'browser' | 'api';
  state: string;
  csrfToken: string;
  requestUrl: string;
  returnTo?: string | null;
  identityId?: string | null;
  ui: FlowUi;
  data?: Record<string, unknown>;
  lifespanMs: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createFlow(q: Queryable, f: NewFlow): Promise<FlowRow> {
  const now = new Date();
  const [row] = await q.query<FlowRow>(
    `INSERT INTO selfservice_flows (nid, id, kind, type, state, csrf_token, request_url, return_to, identity_id, ui, data,
                                    issued_at, expires_at, created_at, updated_at)
     VALUES ('${CONSOLE_NID}', $1, $2, $12, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10, $10) RETURNING *`,
    [
      randomUUID(),
      f.kind,
      f.state,
      f.csrfToken,
      f.requestUrl,
      f.returnTo ?? null,
      f.identityId ?? null,
      JSON.stringify(f.ui),
      JSON.stringify(f.data ?? {}),
      now,
      new Date(now.getTime() + f.lifespanMs),
      f.type ?? 'browser',
    ],
  );
  if (!row) throw new Error('flow insert returned no row');
  return row;
}

/** The flow of `kind` with this id, or null (also for ids that are not UUIDs). */
export async function loadFlow(q: Queryable, id: string | undefined, kind: FlowKind): Promise<FlowRow | null> {
  if (!id || !UUID.test(id)) return null;
  const [row] = await q.query<FlowRow>('SELECT * FROM selfservice_flows WHERE id = $1 AND kind = $2', [id, kind]);
  return row ?? null;
}

/** Locks the flow row for the rest of the transaction (serialises concurrent submits). */
export async function lockFlow(q: Queryable, id: string): Promise<FlowRow | null> {
  const [row] = await q.query<FlowRow>('SELECT * FROM selfservice_flows WHERE id = $1 FOR UPDATE', [id]);
  return row ?? null;
}

export async function saveFlow(q: Queryable, flow: FlowRow): Promise<void> {
  flow.updated_at = new Date();
  // The code-attempt count is only ever changed by its own atomic UPDATEs (codes.ts); a submit that
  // loaded the flow earlier must not write back a stale count.
  await q.query(
    `UPDATE selfservice_flows SET state = $2, ui = $3, updated_at = $5,
            data = ($4::jsonb - 'attempts') || jsonb_strip_nulls(jsonb_build_object('attempts', data->'attempts'))
      WHERE id = $1`,
    [flow.id, flow.state, JSON.stringify(flow.ui), JSON.stringify(flow.data), flow.updated_at],
  );
}

export const isExpired = (flow: FlowRow) => new Date(flow.expires_at).getTime() <= Date.now();

/** A flow in Ory's wire format; ui.action points at `base`. */
export async function flowJson(q: Queryable, flow: FlowRow, base: string): Promise<Record<string, unknown>> {
  const iso = (d: Date) => new Date(d).toISOString();
  const json: Record<string, unknown> = {
    id: flow.id,
    type: flow.type,
    expires_at: iso(flow.expires_at),
    issued_at: iso(flow.issued_at),
    request_url: flow.request_url,
    ...(flow.return_to ? { return_to: flow.return_to } : {}),
    ui: {
      action: `${base}/self-service/${flow.kind}?flow=${flow.id}`,
      method: 'POST',
      nodes: flow.ui.nodes,
      ...(flow.ui.messages?.length ? { messages: flow.ui.messages } : {}),
    },
    created_at: iso(flow.created_at),
    updated_at: iso(flow.updated_at),
    state: flow.state,
  };
  if (flow.kind === 'login') Object.assign(json, { refresh: flow.data.refresh === true, requested_aal: 'aal1' });
  if (flow.kind === 'recovery' || flow.kind === 'verification') {
    if (flow.state !== 'choose_method') json.active = 'code';
  }
  if (flow.kind === 'settings' && flow.identity_id) {
    json.identity = await identityJson(q, flow.identity_id, base);
    if (Array.isArray(flow.data.continue_with)) json.continue_with = flow.data.continue_with;
  }
  return json;
}
