import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages';
import {
  CUSTOM_DOMAIN_SUCCESS_MESSAGES,
  customDomainErrorMessage,
  errorReason,
  errorStatus,
  errorText,
  genericErrorMessage,
  isNoActiveProjectError,
  queryRetryDelay,
  requireActiveProjectId,
  requireCustomDomainsProjectId,
  requireProjectSubscriptionId,
  shouldRetryActiveProject,
  shouldRetryQuery,
  withForbiddenFallback,
} from './errors';

const oryError = (error: Record<string, unknown>) => ({ error: { message: 'The request was malformed', ...error } });
const withStatus = (status: number, message = 'x') => Object.assign(new Error(message), { status });
const trpcError = (httpStatus: number, message: string) =>
  Object.assign(new Error(message), { data: { httpStatus, code: 'X' } });

describe('errorReason', () => {
  it.each([
    [oryError({ reason: 'name is required' }), 'name is required'],
    [oryError({ reason: '' }), 'The request was malformed'],
    [oryError({ reason: '   ' }), 'The request was malformed'],
    [{ error: { code: 404 } }, undefined],
    [{ error: 'invalid_request', error_description: 'The redirect URL is not allowed' }, 'The redirect URL is not allowed'],
    [{ error: 'invalid_request' }, 'invalid_request'],
    [{ message: 'flat' }, undefined],
    ['text', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%j → %j', (body, expected) => {
    expect(errorReason(body)).toBe(expected);
  });
});

describe('errorStatus', () => {
  it.each([
    [withStatus(409), 409],
    [{ statusCode: 503 }, 503],
    [{ response: { status: 401, data: {} } }, 401],
    [trpcError(403, 'FORBIDDEN'), 403],
    [{ error: { code: 404, message: 'm' } }, 404],
    [{ status: '500' }, undefined],
    [new Error('x'), undefined],
    [null, undefined],
    ['401', undefined],
  ])('%j → %j', (error, expected) => {
    expect(errorStatus(error)).toBe(expected);
  });
});

describe('errorText', () => {
  it.each([
    [oryError({ reason: 'r' }), 'r'],
    [{ response: { data: oryError({ reason: 'from axios' }) }, message: 'Request failed with status code 400' }, 'from axios'],
    [{ response: { data: 'html' }, message: 'Request failed' }, 'Request failed'],
    [{ body: oryError({}) }, 'The request was malformed'],
    [new Error('boom'), 'boom'],
    [new Error(''), undefined],
    ['plain', 'plain'],
    ['', undefined],
    [42, undefined],
    [{}, undefined],
  ])('%j → %j', (error, expected) => {
    expect(errorText(error)).toBe(expected);
  });
});

describe('genericErrorMessage', () => {
  const support = 'support@example.com';
  it.each([
    [new Error('boom'), undefined, 'An error occurred: boom'],
    [oryError({ reason: 'quota exceeded' }), 'Could not create the project', 'Could not create the project: quota exceeded'],
    [
      {},
      undefined,
      'An error occurred: Something went wrong. If the problem persists, please contact support support@example.com',
    ],
    [
      null,
      'Could not save',
      'Could not save: Something went wrong. If the problem persists, please contact support support@example.com',
    ],
  ])('%j with context %j → %s', (error, context, expected) => {
    expect(genericErrorMessage(error, support, context)).toBe(expected);
  });
});

describe('customDomainErrorMessage', () => {
  it.each([
    ['fetch', oryError({ reason: 'project is halted' }), 'project is halted'],
    ['fetch', {}, MESSAGES.customDomainsFetchUnknown],
    ['fetch', null, 'An unknown error has occurred while fetching your custom domains'],
    ['add', withStatus(409, 'Conflict'), MESSAGES.customDomainInUse],
    ['add', { response: { status: 409, data: oryError({ reason: 'taken' }) } }, MESSAGES.customDomainInUse],
    ['add', { response: { status: 400, data: oryError({ reason: 'hostname is invalid' }) } }, 'hostname is invalid'],
    ['add', withStatus(500, ''), 'Could not add your domain - please get in touch if the error persists.'],
    ['add', null, MESSAGES.customDomainAddFailed],
    ['remove', oryError({ reason: 'r' }), MESSAGES.customDomainRemoveFailed],
    ['update', withStatus(409, 'x'), MESSAGES.customDomainUpdateFailed],
  ] as const)('%s %j → %s', (action, error, expected) => {
    expect(customDomainErrorMessage(action, error)).toBe(expected);
  });

  it('names the success texts', () => {
    expect(CUSTOM_DOMAIN_SUCCESS_MESSAGES).toEqual({
      add: 'Your domain was added and is now pending verification',
      remove: 'Your domain was removed',
      update: 'Your domain settings were updated',
    });
  });
});

describe('guards', () => {
  it.each([
    [{ subscription_id: 'sub_1' }, 'sub_1'],
    [{ subscription_id: null }, MESSAGES.projectHasNoSubscription],
    [{ subscription_id: '' }, MESSAGES.projectHasNoSubscription],
    [{}, MESSAGES.projectHasNoSubscription],
    [null, 'Project has no subscription'],
  ])('requireProjectSubscriptionId(%j)', (project, expected) => {
    if (expected.startsWith('sub_')) expect(requireProjectSubscriptionId(project)).toBe(expected);
    else expect(() => requireProjectSubscriptionId(project)).toThrow(new Error(expected));
  });

  it.each([['p1', 'p1'], [null, undefined], [undefined, undefined], ['', undefined]])(
    'requireCustomDomainsProjectId(%j)',
    (projectId, expected) => {
      if (expected) expect(requireCustomDomainsProjectId(projectId)).toBe(expected);
      else
        expect(() => requireCustomDomainsProjectId(projectId)).toThrow(
          new Error('could not fetch custom domains: projectId is required'),
        );
    },
  );

  it.each([
    [{ project_id: 'p1' }, 'p1'],
    [{ project_id: null }, undefined],
    [{}, undefined],
    [null, undefined],
    [{ project_id: '' }, undefined],
  ])(
    'requireActiveProjectId(%j)',
    (answer, expected) => {
      if (expected) expect(requireActiveProjectId(answer)).toBe(expected);
      else expect(() => requireActiveProjectId(answer)).toThrow(new Error('No active project found'));
    },
  );

  it.each([
    [new Error('No active project found'), true],
    [trpcError(404, 'No active project found'), true],
    [new Error('Project not found'), false],
    ['No active project found', false],
    [null, false],
  ])('isNoActiveProjectError(%j) → %s', (error, expected) => {
    expect(isNoActiveProjectError(error)).toBe(expected);
  });
});

describe('retries', () => {
  it.each([
    [0, new Error('network'), true],
    [1, new Error('network'), true],
    [2, withStatus(500), true],
    [3, new Error('network'), false],
    [4, new Error('network'), false],
    [0, withStatus(401), false],
    [0, trpcError(401, 'UNAUTHORIZED'), false],
    [0, { response: { status: 401 } }, false],
    [0, new Error('No active project found'), false],
    [0, trpcError(404, 'No active project found'), false],
    [0, trpcError(404, 'Not found'), true],
    [0, withStatus(403), true],
  ])('shouldRetryActiveProject(%d, %j) → %s', (count, error, expected) => {
    expect(shouldRetryActiveProject(count, error)).toBe(expected);
  });

  it.each([[0, true], [2, true], [3, false], [10, false]])('shouldRetryQuery(%d) → %s', (count, expected) => {
    expect(shouldRetryQuery(count)).toBe(expected);
    expect(shouldRetryQuery(count, trpcError(502, 'bad gateway'))).toBe(expected);
  });

  it.each([400, 401, 403, 404, 409, 429, 499])('never retries a %d answer', (status) => {
    expect(shouldRetryQuery(0, trpcError(status, 'refused'))).toBe(false);
    expect(shouldRetryQuery(0, withStatus(status))).toBe(false);
  });

  it('retries network failures and 5xx answers', () => {
    expect(shouldRetryQuery(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetryQuery(1, trpcError(500, 'oops'))).toBe(true);
    expect(shouldRetryQuery(0, trpcError(504, 'timeout'))).toBe(true);
  });

  it.each([
    [-1, 1000],
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [3, 8000],
    [4, 16_000],
    [5, 30_000],
    [6, 30_000],
    [50, 30_000],
  ])('queryRetryDelay(%d) → %d ms', (count, expected) => {
    expect(queryRetryDelay(count)).toBe(expected);
  });
});

describe('withForbiddenFallback', () => {
  it.each([
    ['a value', () => Promise.resolve('loaded'), 'loaded'],
    ['a 403', () => Promise.reject(withStatus(403)), null],
    ['a tRPC FORBIDDEN', () => Promise.reject(trpcError(403, 'FORBIDDEN')), null],
  ])('%s → %j', async (_name, load, expected) => {
    await expect(withForbiddenFallback(load, null)).resolves.toBe(expected);
  });

  it.each([
    ['a 401', withStatus(401, 'unauthorized')],
    ['a 404', withStatus(404, 'missing')],
    ['a network error', new Error('network')],
  ])('rethrows %s', async (_name, error) => {
    await expect(withForbiddenFallback(() => Promise.reject(error), null)).rejects.toBe(error);
  });
});
