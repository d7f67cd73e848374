import { Writable } from 'node:stream';
import { TRPCError } from '@trpc/server';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RequiredParameterError } from '../../shared/domain/required-param';
import { UpstreamError, reasonFromBody } from '../upstream/errors';
import { fromAxiosError } from '../upstream/ory';
import type { Context } from './context';
import {
  codeForUpstream,
  GENERIC_INTERNAL_MESSAGE,
  GENERIC_TIMEOUT_MESSAGE,
  GENERIC_UPSTREAM_MESSAGE,
  toTRPCError,
  UNEXPECTED_SHAPE_REASON,
  upstreamErrorData,
} from './errors';
import { createCallerFactory, publicProcedure, router } from './init';

const log = pino({ level: 'silent' });

describe('codeForUpstream', () => {
  it.each([
    [302, 'BAD_GATEWAY'],
    [400, 'BAD_REQUEST'],
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
    [410, 'NOT_FOUND'],
    [418, 'BAD_REQUEST'],
    [429, 'TOO_MANY_REQUESTS'],
    [500, 'BAD_GATEWAY'],
    [502, 'BAD_GATEWAY'],
    [503, 'SERVICE_UNAVAILABLE'],
    [504, 'BAD_GATEWAY'],
  ] as const)('HTTP %i → %s', (status, code) => {
    expect(codeForUpstream(new UpstreamError(status, 'r'))).toBe(code);
  });

  it('maps timeouts to GATEWAY_TIMEOUT and network failures to BAD_GATEWAY', () => {
    expect(codeForUpstream(new UpstreamError(504, 'r', undefined, { kind: 'timeout' }))).toBe('GATEWAY_TIMEOUT');
    expect(codeForUpstream(new UpstreamError(502, 'r', undefined, { kind: 'network' }))).toBe('BAD_GATEWAY');
    expect(codeForUpstream(new UpstreamError(200, 'r', undefined, { kind: 'invalid_response' }))).toBe('BAD_GATEWAY');
  });
});

describe('toTRPCError', () => {
  it('keeps the upstream reason on 4xx', () => {
    const error = toTRPCError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new UpstreamError(409, 'Revision is stale') }), log, 'p');
    expect(error).toMatchObject({ code: 'CONFLICT', message: 'Revision is stale' });
  });

  it('hides 5xx, network and timeout detail behind a generic message', () => {
    expect(toTRPCError(new UpstreamError(500, 'SQL error at row 3'), log, 'p')).toMatchObject({ code: 'BAD_GATEWAY', message: GENERIC_UPSTREAM_MESSAGE });
    expect(toTRPCError(new UpstreamError(504, 'x', undefined, { kind: 'timeout' }), log, 'p')).toMatchObject({ code: 'GATEWAY_TIMEOUT', message: GENERIC_TIMEOUT_MESSAGE });
  });

  it('answers BAD_REQUEST with a readable message for zod failures', () => {
    const result = z.object({ name: z.string().min(1, { message: 'Name is required' }) }).safeParse({ name: '' });
    const error = toTRPCError(new TRPCError({ code: 'BAD_REQUEST', cause: result.error }), log, 'p');
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'name: Name is required' });
  });

  it('answers BAD_REQUEST with the spec text for a missing path parameter', () => {
    const error = toTRPCError(new RequiredParameterError('projectId', 'getProject'), log, 'p');
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'Required parameter projectId was null or undefined when calling getProject' });
  });

  it('passes deliberate TRPCErrors through and hides unknown failures', () => {
    const forbidden = new TRPCError({ code: 'FORBIDDEN', message: 'no' });
    expect(toTRPCError(forbidden, log, 'p')).toBe(forbidden);
    expect(toTRPCError(new Error('secret stack detail'), log, 'p')).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: GENERIC_INTERNAL_MESSAGE });
  });
});

/** A logger whose lines a test reads back. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

describe('an answer in an unexpected shape', () => {
  const answer = { id: 7, token: 'ory_st_secret-session-token' };
  const probe = router({
    output: publicProcedure.output(z.object({ id: z.string() })).query(() => answer as unknown as { id: string }),
    parsed: publicProcedure.query(() => z.object({ id: z.string() }).parse(answer)),
    input: publicProcedure.input(z.object({ name: z.string().min(1, { error: 'Name is required' }) })).query(() => 'ok'),
  });
  const callerWith = (log: pino.Logger) => createCallerFactory(probe)({ log } as unknown as Context);

  it('fails a procedure’s .output() as a logged BAD_GATEWAY, not the caller’s BAD_REQUEST', async () => {
    const { log, lines } = capturedLog();
    const error = await callerWith(log).output().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', message: GENERIC_UPSTREAM_MESSAGE });
    expect(lines).toEqual([expect.objectContaining({ level: 50, path: 'output', kind: 'invalid_response', msg: `upstream failure: ${UNEXPECTED_SHAPE_REASON}` })]);
    expect(lines[0]!.detail).toContain('id:');
    expect(JSON.stringify(lines)).not.toContain('secret-session-token');
  });

  it('treats an answer a handler parses itself the same way', async () => {
    const { log, lines } = capturedLog();
    expect(await callerWith(log).parsed().catch((e: unknown) => e)).toMatchObject({ code: 'BAD_GATEWAY' });
    expect(lines).toHaveLength(1);
  });

  it('still answers the caller’s own bad input with BAD_REQUEST naming the field, unlogged', async () => {
    const { log, lines } = capturedLog();
    expect(await callerWith(log).input({ name: '' }).catch((e: unknown) => e)).toMatchObject({ code: 'BAD_REQUEST', message: 'name: Name is required' });
    expect(lines).toEqual([]);
  });
});

describe("Ory's error.details", () => {
  const body = { error: { code: 400, status: 'Bad Request', reason: 'The identity schema is not valid', message: 'm', details: { problems: [{ pointer: '/type', message: 'must be "object"' }] } } };

  it('travel from the answer through UpstreamError into the tRPC error data of a 4xx', () => {
    expect(reasonFromBody(body, 400).details).toEqual(body.error.details);
    const error = fromAxiosError({ isAxiosError: true, response: { status: 400, data: body, headers: {} }, config: { method: 'post', url: 'http://x/y' } });
    expect(error.details).toEqual(body.error.details);
    const trpc = toTRPCError(error, log, 'p');
    expect(upstreamErrorData(trpc.cause)).toEqual({ reason: 'The identity schema is not valid', errorId: null, details: body.error.details });
  });

  it('stay out of the data of a 5xx and of anything but an object', () => {
    expect(upstreamErrorData(new UpstreamError(500, 'r', undefined, { details: { sql: 'x' } })).details).toBeNull();
    expect(reasonFromBody({ error: { message: 'm', details: ['a'] } }, 400).details).toBeUndefined();
  });
});
