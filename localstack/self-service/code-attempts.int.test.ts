import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { registerUser } from '../../server/test-support/users';
import { anyStatus, browser, csrfOf, latestCode, startTestStack } from '../test-support/self-service';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const PARALLEL_GUESSES = 20;
const ROUNDS = 3;

/** Wrong 6-digit codes, none equal to `real`. */
const wrongCodes = (real: string, n: number) =>
  Array.from({ length: n + 1 }, (_, i) => String((Number(real) + 1 + i * 7919) % 1_000_000).padStart(6, '0'))
    .filter((c) => c !== real)
    .slice(0, n);

describe('code attempt limit under concurrency', () => {
  it(`refuses the real recovery code after ${PARALLEL_GUESSES} parallel wrong guesses, every round`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await registerUser(stack.url);
      const b = browser(stack.url);
      const flow = b.keep(await b.api.createBrowserRecoveryFlow());
      const csrf_token = csrfOf(flow.data);
      await b.api.updateRecoveryFlow({
        flow: flow.data.id,
        cookie: b.cookie(),
        updateRecoveryFlowBody: { method: 'code', email: user.email, csrf_token },
      });
      const { code } = await latestCode(stack.url, user.email);
      const guesses = await Promise.all(
        wrongCodes(code, PARALLEL_GUESSES).map((guess) =>
          b.api.updateRecoveryFlow(
            { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', code: guess, csrf_token } },
            anyStatus,
          ),
        ),
      );
      expect(guesses.map((g) => g.status)).toEqual(Array(PARALLEL_GUESSES).fill(400));
      const real = await b.api.updateRecoveryFlow(
        { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', code, csrf_token } },
        anyStatus,
      );
      expect(real.status, `round ${round}`).toBe(400);
      expect((real.data as unknown as { ui: { messages: { id: number }[] } }).ui.messages[0]?.id).toBe(4060006);
      const who = await b.api.toSession({ cookie: b.cookie() }, anyStatus);
      expect(who.status).toBe(401);
    }
  });

  it('refuses the real verification code after parallel wrong guesses', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await registerUser(stack.url);
      const b = browser(stack.url);
      const flow = b.keep(await b.api.createBrowserVerificationFlow());
      const csrf_token = csrfOf(flow.data);
      await b.api.updateVerificationFlow({
        flow: flow.data.id,
        cookie: b.cookie(),
        updateVerificationFlowBody: { method: 'code', email: user.email, csrf_token },
      });
      const { code } = await latestCode(stack.url, user.email);
      await Promise.all(
        wrongCodes(code, PARALLEL_GUESSES).map((guess) =>
          b.api.updateVerificationFlow(
            { flow: flow.data.id, cookie: b.cookie(), updateVerificationFlowBody: { method: 'code', code: guess, csrf_token } },
            anyStatus,
          ),
        ),
      );
      const real = await b.api.updateVerificationFlow(
        { flow: flow.data.id, cookie: b.cookie(), updateVerificationFlowBody: { method: 'code', code, csrf_token } },
        anyStatus,
      );
      expect(real.status, `round ${round}`).toBe(400);
      const who = await b.api.toSession({ cookie: user.cookie });
      expect(who.data.identity?.verifiable_addresses?.[0]?.verified).toBe(false);
    }
  });

  it('still accepts the real code after fewer wrong guesses than the limit', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserRecoveryFlow());
    const csrf_token = csrfOf(flow.data);
    await b.api.updateRecoveryFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateRecoveryFlowBody: { method: 'code', email: user.email, csrf_token },
    });
    const { code } = await latestCode(stack.url, user.email);
    await Promise.all(
      wrongCodes(code, 4).map((guess) =>
        b.api.updateRecoveryFlow(
          { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', code: guess, csrf_token } },
          anyStatus,
        ),
      ),
    );
    const real = await b.api.updateRecoveryFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', code, csrf_token } },
      anyStatus,
    );
    expect(real.status).toBe(422);
  });
});
