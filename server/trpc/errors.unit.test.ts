import { TRPCError } from '@trpc/server';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RequiredParameterError } from '../../shared/domain/required-param';
import { UpstreamError } from '../upstream/errors';
import { codeForUpstream, GENERIC_INTERNAL_MESSAGE, GENERIC_TIMEOUT_MESSAGE, GENERIC_UPSTREAM_MESSAGE, toTRPCError } from './errors';

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
    [503, 'BAD_GATEWAY'],
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
