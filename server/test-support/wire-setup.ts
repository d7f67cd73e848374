import { afterAll, afterEach, inject } from 'vitest';
import { assertWireConformance, takeWireTally } from './wire-recorder';
import { writeTally } from './wire-tally';

// Every integration test fails when an answer its stack sent is off Ory's published spec (checked here,
// after the test). Answers sent outside a test (beforeAll/afterAll) fail the next test, or the file at its end.
afterEach(() => assertWireConformance());

afterAll(async () => {
  try {
    assertWireConformance();
  } finally {
    await writeTally(inject('wireConformanceDir'), takeWireTally());
  }
});
