/**
 * Every text the spec quotes, to the letter, from one place. Tests assert each of them.
 * Functions build the texts that carry a value.
 */
export const MESSAGES = {
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
} as const;

/** Spec §5: 'Required parameter X was null or undefined when calling Y'. */
export function requiredParameterMessage(parameter: string, operation: string): string {
  return `Required parameter ${parameter} was null or undefined when calling ${operation}`;
}

/** Spec §8: the generic handler's toast '<context message>: <error>'. */
export function contextErrorMessage(error: string, context: string = MESSAGES.genericContextDefault): string {
  return `${context}: ${error}`;
}

/** Spec §8: the fallback text, followed by the support address. */
export function genericFallbackMessage(supportEmail: string): string {
  return `${MESSAGES.genericFallback} ${supportEmail}`;
}
