import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { CONSOLE_CLI, startConsoleConsent } from '../test-support/console-oauth2';
import { registerUser } from '../test-support/users';
import { TEST_UI_URL } from '../test-support/stack';

// The console's own consent page: a command-line tool (openid-client) asks to act on the user's console account,
// is sent through the console sign-in to /oauth2/consent, and the page's allow or deny (oauth2Consent, through
// createCaller against a real local stack) sends it back with a code or with access_denied.

let stack: TestStack;
let a: { cookie: string };
let b: { cookie: string };

beforeAll(async () => {
  stack = await startTestStack();
  [a, b] = await Promise.all([registerUser(stack.url, { name: 'Consenting' }), registerUser(stack.url, { name: 'Other' })]);
});
afterAll(async () => {
  await stack?.close();
});

describe('oauth2Consent', () => {
  it('shows who asks for what, and allowing returns the tool a code for tokens', async () => {
    const caller = callerFor(testDeps(stack.url), a.cookie);
    const flow = await startConsoleConsent(stack.url, a.cookie, 'openid offline_access email');
    expect(`${flow.consentPage.origin}${flow.consentPage.pathname}`).toBe(`${TEST_UI_URL}/oauth2/consent`);
    const request = await caller.oauth2Consent.get({ challenge: flow.challenge });
    expect(request).toMatchObject({ challenge: flow.challenge, client: { client_id: CONSOLE_CLI.clientId, client_name: 'Console CLI' } });
    expect(request.requested_scope).toEqual(['openid', 'offline_access', 'email']);
    expect(request.client).not.toHaveProperty('client_secret');

    // Scopes the user unchecked, or that were never asked for, are not granted.
    const { redirect_to } = await caller.oauth2Consent.accept({ challenge: flow.challenge, scopes: ['openid', 'offline_access', 'admin'], remember: true });
    const callback = await flow.finish(redirect_to);
    expect(callback.searchParams.get('code')).toBeTruthy();
    const tokens = await flow.exchange(callback);
    expect(tokens.claims()).toMatchObject({ sub: request.subject, aud: CONSOLE_CLI.clientId, iss: stack.url });
    expect(tokens.scope?.split(' ').sort()).toEqual(['offline_access', 'openid']);
    expect(tokens.refresh_token).toBeTruthy();

    // A request is answered once.
    expect((await rejection(caller.oauth2Consent.get({ challenge: flow.challenge }))).code).toMatch(/NOT_FOUND|BAD_REQUEST/);
  });

  it('denying returns the tool access_denied', async () => {
    const caller = callerFor(testDeps(stack.url), a.cookie);
    const flow = await startConsoleConsent(stack.url, a.cookie);
    const { redirect_to } = await caller.oauth2Consent.reject({ challenge: flow.challenge });
    const callback = await flow.finish(redirect_to);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(flow.state);
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it("refuses another user's challenge, a signed-out caller and bad input", async () => {
    const flow = await startConsoleConsent(stack.url, a.cookie);
    const other = callerFor(testDeps(stack.url), b.cookie);
    expect((await rejection(other.oauth2Consent.get({ challenge: flow.challenge }))).code).toBe('NOT_FOUND');
    expect((await rejection(other.oauth2Consent.accept({ challenge: flow.challenge, scopes: ['openid'], remember: false }))).code).toBe('NOT_FOUND');
    expect((await rejection(other.oauth2Consent.reject({ challenge: flow.challenge }))).code).toBe('NOT_FOUND');
    expect((await rejection(callerFor(testDeps(stack.url), undefined).oauth2Consent.get({ challenge: flow.challenge }))).code).toBe('UNAUTHORIZED');
    const bad = await rejection(callerFor(testDeps(stack.url), a.cookie).oauth2Consent.get({ challenge: 'not a challenge' }));
    expect(bad.code).toBe('BAD_REQUEST');
    // The owner's request was left as it was.
    const { redirect_to } = await callerFor(testDeps(stack.url), a.cookie).oauth2Consent.accept({ challenge: flow.challenge, scopes: ['openid'], remember: false });
    expect((await flow.finish(redirect_to)).searchParams.get('code')).toBeTruthy();
  });
});
