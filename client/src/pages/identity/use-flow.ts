import { useCallback, useEffect, useRef, useState } from 'react';
import { safeReturnToUrl } from '../../../../shared/domain/return-to';
import type { FlowKind, SelfServiceFlow } from './flow-types';
import { createFlow, getFlow, submitFlow, type CreateFlowParams, type FlowOutcome } from './ory-flow';

/**
 * Answers that end the flow before it starts, said the same way on every flow page unless the page
 * handles them itself: a session already exists (session_already_available), or none does
 * (session_inactive, 401).
 */
export type FlowNotice = 'signed-in' | 'signed-out';

export type FlowState =
  | { status: 'loading' }
  | { status: 'ready'; flow: SelfServiceFlow; version: number }
  | { status: 'notice'; notice: FlowNotice }
  | { status: 'error'; message: string };

export interface FlowHandlers {
  /** 200 on login or registration. */
  onDone?: (body: Extract<FlowOutcome, { kind: 'done' }>['body'], flow: SelfServiceFlow) => void;
  /** The provider says a session already exists. */
  onSignedIn?: () => void;
  /** The flow needs a session and there is none. */
  onUnauthorized?: () => void;
  /** Called with every flow rendered after a submit (e.g. settings saved). */
  onUpdated?: (flow: SelfServiceFlow) => void;
}

/** Keeps ?flow=<id> in the address bar so a reload resumes the same flow. */
function rememberFlowId(id: string): void {
  const url = new URL(window.location.href);
  if (url.searchParams.get('flow') === id) return;
  url.searchParams.set('flow', id);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * Drives one self-service flow: resume ?flow= or start a new one, submit, and follow the answers
 * (400 re-render, 410 new flow, 422 browser redirect).
 */
export function useFlow(kind: FlowKind, params: CreateFlowParams, handlers: FlowHandlers = {}) {
  const [state, setState] = useState<FlowState>({ status: 'loading' });
  const [submitting, setSubmitting] = useState(false);
  const version = useRef(0);
  const latest = useRef({ params, handlers });
  latest.current = { params, handlers };

  const apply = useCallback(
    async (outcome: FlowOutcome, restart: () => Promise<void>): Promise<void> => {
      const { handlers: h } = latest.current;
      switch (outcome.kind) {
        case 'flow':
          version.current += 1;
          rememberFlowId(outcome.flow.id);
          setState({ status: 'ready', flow: outcome.flow, version: version.current });
          return;
        case 'expired':
          return restart();
        case 'redirect': {
          const target = safeReturnToUrl(outcome.to, window.location.origin);
          if (target) window.location.assign(target);
          else setState({ status: 'error', message: 'The identity service asked for a redirect to another site.' });
          return;
        }
        case 'signed-in':
          if (h.onSignedIn) return h.onSignedIn();
          setState({ status: 'notice', notice: 'signed-in' });
          return;
        case 'unauthorized':
          if (h.onUnauthorized) return h.onUnauthorized();
          setState({ status: 'notice', notice: 'signed-out' });
          return;
        case 'done':
          return;
        case 'error':
          setState({ status: 'error', message: outcome.message });
      }
    },
    [],
  );

  const start = useCallback(async (): Promise<void> => {
    setState({ status: 'loading' });
    try {
      const outcome = await createFlow(kind, latest.current.params);
      await apply(outcome.kind === 'expired' ? { kind: 'error', status: 410, message: 'The flow expired.' } : outcome, start);
    } catch (error) {
      setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }, [kind, apply]);

  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get('flow');
    if (!id) {
      void start();
      return;
    }
    getFlow(kind, id)
      .then((outcome) => apply(outcome, start))
      .catch(() => start());
  }, [kind, start, apply]);

  const submit = useCallback(
    async (body: Record<string, unknown>) => {
      if (state.status !== 'ready') return;
      setSubmitting(true);
      try {
        const outcome = await submitFlow(kind, state.flow, body);
        if (outcome.kind === 'done') latest.current.handlers.onDone?.(outcome.body, state.flow);
        else await apply(outcome, start);
        if (outcome.kind === 'flow') latest.current.handlers.onUpdated?.(outcome.flow);
      } catch (error) {
        setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      } finally {
        setSubmitting(false);
      }
    },
    [kind, state, apply, start],
  );

  return { state, submitting, submit, restart: start };
}
