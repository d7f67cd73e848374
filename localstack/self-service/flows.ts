import { randomUUID } from 'node:crypto';
import type {
  ContinueWith,
  LoginFlow,
  LoginFlowState,
  RecoveryFlow,
  RecoveryFlowState,
  RegistrationFlow,
  RegistrationFlowState,
  SettingsFlow,
  SettingsFlowState,
  UiContainer,
  VerificationFlow,
  VerificationFlowState,
} from '@ory/client';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { publicIdentity } from '../identity/service';
import { selfserviceFlows, type SelfserviceFlowRow } from '../identity/schema';
import type { FlowKind, FlowUi } from '../kernel/flow-ui';

export type { FlowKind, FlowUi };

export type FlowRow = SelfserviceFlowRow;

export interface NewFlow {
  /** The tenant the flow belongs to. */
  nid: string;
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
  /** The local stack's clock time the flow is issued at (`ctx.clock.now()`). */
  now: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createFlow(q: Queryable, f: NewFlow): Promise<FlowRow> {
  const { now } = f;
  const [row] = await q.orm
    .insert(selfserviceFlows)
    .values({
      id: randomUUID(),
      nid: f.nid,
      kind: f.kind,
      type: f.type ?? 'browser',
      state: f.state,
      csrf_token: f.csrfToken,
      request_url: f.requestUrl,
      return_to: f.returnTo ?? null,
      identity_id: f.identityId ?? null,
      ui: f.ui,
      data: f.data ?? {},
      issued_at: now,
      expires_at: new Date(now.getTime() + f.lifespanMs),
      created_at: now,
      updated_at: now,
    })
    .returning();
  if (!row) throw new Error('flow insert returned no row');
  return row;
}

/** The flow of tenant `nid` and `kind` with this id, or null (also for ids that are not UUIDs). */
export async function loadFlow(q: Queryable, nid: string, id: string | undefined, kind: FlowKind): Promise<FlowRow | null> {
  if (!id || !UUID.test(id)) return null;
  const [row] = await q.orm
    .select()
    .from(selfserviceFlows)
    .where(and(eq(selfserviceFlows.nid, nid), eq(selfserviceFlows.id, id), eq(selfserviceFlows.kind, kind)));
  return row ?? null;
}

/** Writes the flow's state and ui back, updated at `now` (the stack's clock time). */
export async function saveFlow(q: Queryable, flow: FlowRow, now: Date): Promise<void> {
  flow.updated_at = now;
  // The code-attempt count is only ever changed by its own atomic UPDATEs (codes.ts); a submit that
  // loaded the flow earlier must not write back a stale count.
  await q.orm
    .update(selfserviceFlows)
    .set({
      state: flow.state,
      ui: flow.ui,
      updated_at: flow.updated_at,
      data: sql`(${JSON.stringify(flow.data)}::jsonb - 'attempts') || jsonb_strip_nulls(jsonb_build_object('attempts', ${selfserviceFlows.data}->'attempts'))`,
    })
    .where(and(eq(selfserviceFlows.nid, flow.nid), eq(selfserviceFlows.id, flow.id)));
}

/** Marks a flow whose challenge was met (a login, registration or code that succeeded). */
export async function markPassed(q: Queryable, flow: FlowRow, now: Date): Promise<void> {
  await q.orm
    .update(selfserviceFlows)
    .set({ state: 'passed_challenge', updated_at: now })
    .where(and(eq(selfserviceFlows.nid, flow.nid), eq(selfserviceFlows.id, flow.id)));
}

/** Whether the flow's lifespan ended by `now`, the local stack's clock time. */
export const isExpired = (flow: FlowRow, now: Date) => flow.expires_at.getTime() <= now.getTime();

/** A flow in Ory's wire format; ui.action points at `base`, the flow's tenant's base URL. */
/** Any self-service flow as Ory's models describe it. */
export type FlowJson = LoginFlow | RegistrationFlow | RecoveryFlow | VerificationFlow | SettingsFlow;

/**
 * A flow in Ory's wire format. Each kind's answer `satisfies` its @ory/client model; the nodes come from
 * the builders of `nodes.ts`, whose attributes are checked against Ory's attribute models there.
 */
export async function flowJson(q: Queryable, flow: FlowRow, base: string): Promise<FlowJson> {
  const iso = (d: Date) => d.toISOString();
  const ui = {
    action: `${base}/self-service/${flow.kind}?flow=${flow.id}`,
    method: 'POST',
    // API flows (native apps) have no anti-CSRF token.
    nodes: flow.type === 'api' ? flow.ui.nodes.filter((n) => (n.attributes as { name?: string }).name !== 'csrf_token') : flow.ui.nodes,
    ...(flow.ui.messages?.length ? { messages: flow.ui.messages } : {}),
  } satisfies UiContainer;
  const common = {
    id: flow.id,
    type: flow.type,
    expires_at: iso(flow.expires_at),
    issued_at: iso(flow.issued_at),
    request_url: flow.request_url,
    ...(flow.return_to ? { return_to: flow.return_to } : {}),
    ui,
    created_at: iso(flow.created_at),
    updated_at: iso(flow.updated_at),
  };
  const continueWith = Array.isArray(flow.data.continue_with) ? { continue_with: flow.data.continue_with as ContinueWith[] } : {};
  const codeActive = flow.state !== 'choose_method' ? { active: 'code' } : {};
  switch (flow.kind) {
    case 'login':
      return { ...common, state: flow.state as LoginFlowState, refresh: flow.data.refresh === true, requested_aal: flow.data.aal === 'aal2' ? 'aal2' : 'aal1' } satisfies LoginFlow;
    case 'registration':
      return { ...common, state: flow.state as RegistrationFlowState, ...(flow.data.active === 'code' ? { active: 'code' } : {}) } satisfies RegistrationFlow;
    case 'recovery':
      return { ...common, state: flow.state as RecoveryFlowState, ...codeActive, ...continueWith } satisfies RecoveryFlow;
    case 'verification':
      return { ...common, state: flow.state as VerificationFlowState, ...codeActive } satisfies VerificationFlow;
    case 'settings': {
      const identity = flow.identity_id ? await publicIdentity(q, flow.nid, flow.identity_id, base) : null;
      if (!identity) throw new Error(`settings flow ${flow.id} has no identity`);
      return { ...common, state: flow.state as SettingsFlowState, identity, ...continueWith } satisfies SettingsFlow;
    }
    default:
      throw new Error(`unknown flow kind ${String(flow.kind)}`);
  }
}
