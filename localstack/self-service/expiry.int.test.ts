import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { registerUser } from '../../server/test-support/users';
import { anyStatus, browser, csrfOf, startTestStack } from '../test-support/self-service';

const LIFESPAN_MS = 10 * 60_000;
let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ flowLifespanMs: LIFESPAN_MS });
});
afterAll(async () => {
  await stack?.close();
});

describe('expired flows', () => {
  it('answers 410 self_service_flow_expired on read and submit, pointing at a new flow', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    // The flow's lifespan passes on the stack's clock; nothing waits for it.
    stack.clock.advance(LIFESPAN_MS + 1);

    const read = await b.api.getLoginFlow({ id: flow.data.id, cookie: b.cookie() }, anyStatus);
    expect(read.status).toBe(410);
    expect((read.data as unknown as { error: { id: string } }).error.id).toBe('self_service_flow_expired');

    const submit = await b.api.updateLoginFlow(
      {
        flow: flow.data.id,
        cookie: b.cookie(),
        updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), identifier: user.email, password: user.password },
      },
      anyStatus,
    );
    expect(submit.status).toBe(410);
    const body = submit.data as unknown as { error: { id: string; code: number }; use_flow_id: string };
    expect(body.error).toMatchObject({ id: 'self_service_flow_expired', code: 410 });
    expect(body.use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.use_flow_id).not.toBe(flow.data.id);

    const fresh = await b.api.getLoginFlow({ id: body.use_flow_id, cookie: b.cookie() });
    expect(fresh.data.ui.messages?.[0]).toMatchObject({ id: 4010001, type: 'error' });
    const ok = await b.api.updateLoginFlow({
      flow: fresh.data.id,
      cookie: b.cookie(),
      updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(fresh.data), identifier: user.email, password: user.password },
    });
    expect(ok.data.session.identity?.id).toBe(user.identityId);
  });
});
