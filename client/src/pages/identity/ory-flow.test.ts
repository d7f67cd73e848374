import { describe, expect, it } from 'vitest';
import { buildBody } from './form-body';
import { sameOriginAction, toOutcome } from './ory-flow';

const flow = { id: 'f1', ui: { action: 'http://localhost:3000/.ory/self-service/login?flow=f1', method: 'POST', nodes: [] } };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('toOutcome', () => {
  it('re-renders the flow on 400', async () => {
    expect(await toOutcome(json(400, flow), true)).toEqual({ kind: 'flow', flow });
  });
  it('finishes on 200 for login and registration', async () => {
    expect((await toOutcome(json(200, { session: {} }), true)).kind).toBe('done');
  });
  it('treats 200 as a new flow state for the other flows', async () => {
    expect((await toOutcome(json(200, flow), false)).kind).toBe('flow');
  });
  it('starts over on 410', async () => {
    expect(await toOutcome(json(410, { error: { code: 410 } }), true)).toEqual({ kind: 'expired' });
  });
  it('follows redirect_browser_to on 422', async () => {
    expect(await toOutcome(json(422, { error: { id: 'browser_location_change_required' }, redirect_browser_to: '/settings?flow=x' }), false)).toEqual({ kind: 'redirect', to: '/settings?flow=x' });
  });
  it('knows an existing session', async () => {
    expect(await toOutcome(json(400, { error: { id: 'session_already_available' } }), false)).toEqual({ kind: 'signed-in' });
  });
  it('reports other errors with their reason', async () => {
    expect(await toOutcome(json(500, { error: { message: 'boom', reason: 'disk full' } }), false)).toEqual({ kind: 'error', status: 500, message: 'disk full' });
  });
});

describe('sameOriginAction', () => {
  it('keeps our own origin as a path', () => {
    expect(sameOriginAction(flow.ui.action, 'http://localhost:3000')).toBe('/.ory/self-service/login?flow=f1');
  });
  it('sends another origin through the /.ory proxy', () => {
    expect(sameOriginAction('http://127.0.0.1:4455/self-service/login?flow=f1', 'http://localhost:3000')).toBe('/.ory/self-service/login?flow=f1');
  });
});

describe('buildBody', () => {
  it('nests dotted names', () => {
    expect(buildBody([{ name: 'traits.email', value: 'a@b.c' }, { name: 'traits.name', value: 'A' }, { name: 'method', value: 'password' }])).toEqual({
      traits: { email: 'a@b.c', name: 'A' },
      method: 'password',
    });
  });
});
