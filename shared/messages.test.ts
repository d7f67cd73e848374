import { describe, expect, it } from 'vitest';
import { contextErrorMessage, genericFallbackMessage, MESSAGES, requiredParameterMessage } from './messages';

describe('MESSAGES', () => {
  it.each(Object.entries(MESSAGES))('%s uses straight apostrophes and no stray spaces', (_key, text) => {
    expect(text).not.toMatch(/[\u2018\u2019\u201c\u201d]/);
    expect(text).toBe(text.trim());
    expect(text).not.toMatch(/ {2}/);
  });
});

describe('requiredParameterMessage', () => {
  it.each([
    ['workspace', 'getWorkspace', 'Required parameter workspace was null or undefined when calling getWorkspace'],
    [
      'subscriptionId',
      'getSubscription',
      'Required parameter subscriptionId was null or undefined when calling getSubscription',
    ],
    ['projectId', 'getProject', 'Required parameter projectId was null or undefined when calling getProject'],
    ['invite', 'acceptInvite', 'Required parameter invite was null or undefined when calling acceptInvite'],
    [
      'organizationId',
      'getOrganization',
      'Required parameter organizationId was null or undefined when calling getOrganization',
    ],
  ])('%s / %s', (parameter, operation, expected) => {
    expect(requiredParameterMessage(parameter, operation)).toBe(expected);
  });
});

describe('contextErrorMessage', () => {
  it.each([
    ['boom', undefined, 'An error occurred: boom'],
    ['boom', 'Could not rename the project', 'Could not rename the project: boom'],
  ])('%j with context %j → %s', (error, context, expected) => {
    expect(contextErrorMessage(error, context)).toBe(expected);
  });
});

describe('genericFallbackMessage', () => {
  it('appends the support address', () => {
    expect(genericFallbackMessage('support@example.com')).toBe(
      'Something went wrong. If the problem persists, please contact support support@example.com',
    );
  });
});
