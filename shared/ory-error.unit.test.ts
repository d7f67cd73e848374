import { describe, expect, it } from 'vitest';
import { errorBody } from './ory-error';

describe('errorBody', () => {
  it("builds Ory's errorGeneric with the status phrase and default message of the code", () => {
    expect(errorBody(404, { reason: 'Project p does not exist.', request: 'req-1' })).toEqual({
      error: {
        code: 404,
        status: 'Not Found',
        request: 'req-1',
        reason: 'Project p does not exist.',
        message: 'The requested resource could not be found',
      },
    });
  });

  it('keeps an id, details, a given message and extra top-level fields', () => {
    const body = errorBody(400, {
      id: 'self_service_flow_return_to_forbidden',
      reason: 'Requested return_to URL is not allowed.',
      message: 'custom',
      details: { fields: { name: ['must not be empty'] } },
      extra: { redirect_browser_to: 'http://localhost:3000/' },
    });
    expect(body).toEqual({
      error: {
        id: 'self_service_flow_return_to_forbidden',
        code: 400,
        status: 'Bad Request',
        reason: 'Requested return_to URL is not allowed.',
        message: 'custom',
        details: { fields: { name: ['must not be empty'] } },
      },
      redirect_browser_to: 'http://localhost:3000/',
    });
  });

  it('answers a generic phrase for a code it has no entry for', () => {
    expect(errorBody(418).error).toEqual({ code: 418, status: 'Error', message: 'An error occurred' });
    expect(errorBody(504).error.status).toBe('Gateway Timeout');
  });
});
