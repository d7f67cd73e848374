import type { FastifyReply, FastifyRequest } from 'fastify';
import { oryWireValidator, type WireAnswer, type WireOutcome } from './wire-conformance';
import { emptyTally, type WireTally } from './wire-tally';

/**
 * The wire check of the integration suite: every answer of a test stack is kept as it is sent and checked
 * against Ory's OpenAPI in the test's afterEach (wire-setup.ts), which throws the mismatches. Checking there,
 * not while answering, keeps the spec's loading and compiling out of the answers' timing.
 */
let tally = emptyTally();
const unchecked: WireAnswer[] = [];

/** The local stack's onAnswer hook for tests. */
export function recordWireAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const answer: WireAnswer = {
    method: req.method,
    url: req.url,
    route: req.routeOptions.url ?? null,
    status: reply.statusCode,
    contentType: headerText(reply.getHeader('content-type')),
    body: payloadText(payload),
  };
  unchecked.push(answer);
}

function checkSafely(answer: WireAnswer): WireOutcome {
  if (answer.body === undefined) {
    return { kind: 'mismatch', operation: `${answer.method} ${answer.url}`, problems: [{ instancePath: '', message: 'a streamed body cannot be checked' }] };
  }
  try {
    return oryWireValidator().check(answer);
  } catch (err) {
    const message = `the wire check failed: ${err instanceof Error ? err.message : String(err)}`;
    return { kind: 'mismatch', operation: `${answer.method} ${answer.url}`, problems: [{ instancePath: '', message }] };
  }
}

function recordOutcome(answer: WireAnswer, outcome: WireOutcome, mismatches: string[]): void {
  if (outcome.kind === 'local-only') {
    tally.localOnly += 1;
    return;
  }
  tally.validated += 1;
  if (outcome.kind === 'allowlisted') {
    tally.allowlisted += 1;
    for (const reason of outcome.reasons) tally.reasons[reason] = (tally.reasons[reason] ?? 0) + 1;
  }
  if (outcome.kind !== 'mismatch') return;
  tally.mismatched += 1;
  const problems = outcome.problems.map((p) => `    ${p.instancePath || '(answer)'}: ${p.message}`).join('\n');
  mismatches.push(`${answer.method} ${answer.url.split('?')[0]} → ${answer.status}, checked as ${outcome.operation}:\n${problems}`);
}

/** Checks the answers sent since the last call and throws their mismatches. */
export function assertWireConformance(): void {
  const mismatches: string[] = [];
  for (const answer of unchecked.splice(0)) recordOutcome(answer, checkSafely(answer), mismatches);
  if (mismatches.length === 0) return;
  throw new Error(`The local stack answered off Ory's published spec (${mismatches.length}):\n${mismatches.join('\n')}`);
}

/** The counts of this test file so far, and a fresh start. */
export function takeWireTally(): WireTally {
  const out = tally;
  tally = emptyTally();
  return out;
}

function headerText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The body as text; undefined when it is a stream (which cannot be read without consuming it). */
function payloadText(payload: unknown): string | undefined {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}
