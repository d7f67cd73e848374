import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { ERROR_IDS, errorCode, errorId, fieldErrors, isAal2Required, isConflict, isConsoleError } from './errors';

/** What the BFF sends back for a failed call (its errorFormatter's shape). */
function bffError(code: string, httpStatus: number, message: string, extra: Record<string, unknown> = {}) {
  return TRPCClientError.from({
    error: { message, code: -32000, data: { code, httpStatus, path: 'x', zodError: null, reason: null, errorId: null, ...extra } },
  });
}

describe('typed client errors', () => {
  it('recognises the BFF\'s errors and reads their code and id', () => {
    const error = bffError('FORBIDDEN', 403, 'aal2', { reason: 'aal2', errorId: ERROR_IDS.sessionAal2Required });
    expect(isConsoleError(error)).toBe(true);
    expect(isConsoleError(new Error('x'))).toBe(false);
    expect(errorCode(error)).toBe('FORBIDDEN');
    expect(errorId(error)).toBe('session_aal2_required');
  });

  it('asks for a second factor on the error id or the reason, never on the message alone', () => {
    expect(isAal2Required(bffError('FORBIDDEN', 403, 'Forbidden', { errorId: ERROR_IDS.sessionAal2Required }))).toBe(true);
    expect(isAal2Required(bffError('FORBIDDEN', 403, 'Forbidden', { reason: 'aal2' }))).toBe(true);
    expect(isAal2Required(bffError('FORBIDDEN', 403, 'aal2'))).toBe(false);
    expect(isAal2Required(bffError('UNAUTHORIZED', 401, 'x', { errorId: ERROR_IDS.sessionAal2Required }))).toBe(false);
    expect(isAal2Required(new Error('aal2'))).toBe(false);
  });

  it('tells a stale-revision conflict from other failures', () => {
    expect(isConflict(bffError('CONFLICT', 409, 'Revision r1 is not the current revision'))).toBe(true);
    expect(isConflict(bffError('BAD_REQUEST', 400, 'x'))).toBe(false);
  });

  it('maps validation issues to their fields', () => {
    const error = bffError('BAD_REQUEST', 400, 'name: Too long', { zodError: { formErrors: [], fieldErrors: { name: ['Too long', 'x'] } } });
    expect(fieldErrors(error)).toEqual({ name: 'Too long' });
    expect(fieldErrors(bffError('CONFLICT', 409, 'x'))).toEqual({});
  });
});
