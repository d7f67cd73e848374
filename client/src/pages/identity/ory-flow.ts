import type { ContinueWith, FlowErrorBody, FlowKind, SelfServiceFlow } from './flow-types';
import { isFlow } from './flow-types';
import { plainDurations } from '../../../../shared/domain/identity-messages';

/** The identity provider's frontend API, proxied first-party by the BFF. */
export const ORY_BASE = '/.ory';

const JSON_HEADERS = { Accept: 'application/json' } as const;

export type FlowOutcome =
  | { kind: 'flow'; flow: SelfServiceFlow }
  | { kind: 'done'; body: { continue_with?: ContinueWith[]; [key: string]: unknown } }
  | { kind: 'redirect'; to: string }
  | { kind: 'expired' }
  | { kind: 'signed-in' }
  | { kind: 'unauthorized' }
  | { kind: 'error'; status: number; message: string };

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

function errorMessage(body: unknown, status: number): string {
  const error = (body as FlowErrorBody | null)?.error;
  return plainDurations(error?.reason || error?.message || `The identity service answered ${status}`);
}

/** Maps any self-service answer to what the page should do next. */
export async function toOutcome(res: Response, doneOnSuccess: boolean): Promise<FlowOutcome> {
  const body = await readJson(res);
  const redirect = (body as FlowErrorBody | null)?.redirect_browser_to;
  if (res.status === 422 && redirect) return { kind: 'redirect', to: redirect };
  if (res.status === 410) return { kind: 'expired' };
  if (res.ok && doneOnSuccess) return { kind: 'done', body: (body ?? {}) as { continue_with?: ContinueWith[] } };
  if ((res.ok || res.status === 400) && isFlow(body)) return { kind: 'flow', flow: body };
  const id = (body as FlowErrorBody | null)?.error?.id;
  if (id === 'session_already_available') return { kind: 'signed-in' };
  if (redirect) return { kind: 'redirect', to: redirect };
  if (res.status === 401) return { kind: 'unauthorized' };
  if (res.status === 403 && id === 'security_csrf_violation') return { kind: 'expired' };
  if (res.status === 404 || (res.status === 403 && id !== 'session_aal2_required')) return { kind: 'expired' };
  return { kind: 'error', status: res.status, message: errorMessage(body, res.status) };
}

export interface CreateFlowParams {
  return_to?: string | null | undefined;
  aal?: string | null | undefined;
  refresh?: boolean | undefined;
}

export async function createFlow(kind: FlowKind, params: CreateFlowParams = {}): Promise<FlowOutcome> {
  const query = new URLSearchParams();
  if (params.return_to) query.set('return_to', params.return_to);
  if (params.aal) query.set('aal', params.aal);
  if (params.refresh) query.set('refresh', 'true');
  const qs = query.toString();
  const res = await fetch(`${ORY_BASE}/self-service/${kind}/browser${qs ? `?${qs}` : ''}`, {
    headers: JSON_HEADERS,
    credentials: 'same-origin',
  });
  return toOutcome(res, false);
}

export async function getFlow(kind: FlowKind, id: string): Promise<FlowOutcome> {
  const res = await fetch(`${ORY_BASE}/self-service/${kind}/flows?id=${encodeURIComponent(id)}`, {
    headers: JSON_HEADERS,
    credentials: 'same-origin',
  });
  return toOutcome(res, false);
}

/**
 * The flow's action on our own origin: the provider builds it from the forwarded public URL; if it
 * names another origin (a provider without the proxy headers), the same path goes through /.ory.
 */
export function sameOriginAction(action: string, origin: string = window.location.origin): string {
  const url = new URL(action, origin);
  if (url.origin === origin) return `${url.pathname}${url.search}`;
  const path = url.pathname.startsWith(ORY_BASE) ? url.pathname : `${ORY_BASE}${url.pathname}`;
  return `${path}${url.search}`;
}

export async function submitFlow(kind: FlowKind, flow: SelfServiceFlow, body: Record<string, unknown>): Promise<FlowOutcome> {
  const res = await fetch(sameOriginAction(flow.ui.action), {
    method: flow.ui.method.toUpperCase() || 'POST',
    headers: { ...JSON_HEADERS, 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  return toOutcome(res, kind === 'login' || kind === 'registration');
}

/** A redirect_browser_to from continue_with, if the answer carries one. */
export function continueRedirect(continueWith: ContinueWith[] | undefined): string | undefined {
  return continueWith?.find((c) => c.action === 'redirect_browser_to')?.redirect_browser_to;
}
