import { describe, expect, it } from 'vitest';
import { contextErrorMessage, genericFallbackMessage, MESSAGES, requiredParameterMessage } from './messages';

/** Each text as the specification quotes it, copied letter for letter. */
const SPEC_TEXTS: Record<keyof typeof MESSAGES, string> = {
  pageTitle: 'Console',
  afterRecovery: 'Your changes have been saved.',
  loadingProject: 'Loading Project',
  projectAccessFailure:
    "You either don't have access or the project doesn't exist. Please contact us if you think this is a mistake.",
  noActiveProject: 'No active project found',
  projectHasNoSubscription: 'Project has no subscription',
  customDomainsProjectIdRequired: 'could not fetch custom domains: projectId is required',
  linkHeaderSplit: 'Link header could not be split on ;',
  genericContextDefault: 'An error occurred',
  genericFallback: 'Something went wrong. If the problem persists, please contact support',
  customDomainsFetchUnknown: 'An unknown error has occurred while fetching your custom domains',
  customDomainInUse:
    'This domain seems to be in use in another project. You can only add the same custom domain to one project at a time.',
  customDomainAddFailed: 'Could not add your domain - please get in touch if the error persists.',
  customDomainRemoveFailed:
    "We couldn't remove your domain at this time. If the problem persists, please get in touch.",
  customDomainUpdateFailed:
    "We couldn't update your domain settings at this time. If the problem persists, please get in touch.",
  customDomainAdded: 'Your domain was added and is now pending verification',
  customDomainRemoved: 'Your domain was removed',
  customDomainUpdated: 'Your domain settings were updated',
  placeholderWorkspaceName: 'No workspace',
};

describe('MESSAGES', () => {
  it.each(Object.entries(SPEC_TEXTS))('%s is the spec text', (key, text) => {
    expect(MESSAGES[key as keyof typeof MESSAGES]).toBe(text);
  });

  it('has no text the spec table above does not check', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual(Object.keys(SPEC_TEXTS).sort());
  });

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
