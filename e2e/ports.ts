/** Where the e2e run's console and its embedded local stack listen. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_LOCALSTACK_PORT = Number(process.env.E2E_LOCALSTACK_PORT ?? 4555);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
/** The local stack itself: its developer mailbox answers only to direct loopback clients. */
export const E2E_LOCALSTACK_URL = `http://127.0.0.1:${E2E_LOCALSTACK_PORT}`;
/**
 * A second console on its own local stack that asks for analytics consent (ANALYTICS_REQUIRE_CONSENT), as
 * a console off the local stack always does: the analytics journey runs there.
 */
export const E2E_CONSENT_PORT = Number(process.env.E2E_CONSENT_PORT ?? 3102);
export const E2E_CONSENT_LOCALSTACK_PORT = Number(process.env.E2E_CONSENT_LOCALSTACK_PORT ?? 4557);
export const E2E_CONSENT_URL = `http://localhost:${E2E_CONSENT_PORT}`;
export const E2E_CONSENT_LOCALSTACK_URL = `http://127.0.0.1:${E2E_CONSENT_LOCALSTACK_PORT}`;
/**
 * A third console on its own local stack for the journeys that move the stack's clock (billing periods): a
 * month forward there would expire the flows and codes of every journey running beside them.
 */
export const E2E_CLOCK_PORT = Number(process.env.E2E_CLOCK_PORT ?? 3104);
export const E2E_CLOCK_LOCALSTACK_PORT = Number(process.env.E2E_CLOCK_LOCALSTACK_PORT ?? 4559);
export const E2E_CLOCK_URL = `http://localhost:${E2E_CLOCK_PORT}`;
export const E2E_CLOCK_LOCALSTACK_URL = `http://127.0.0.1:${E2E_CLOCK_LOCALSTACK_PORT}`;
