import { ACTIVE_PROJECT_MAX_RETRIES, DEFAULT_QUERY_RETRIES, RETRY_DELAY_BASE_MS, RETRY_DELAY_CAP_MS } from '../constants';
import { contextErrorMessage, genericFallbackMessage, MESSAGES } from '../messages';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/**
 * The most useful explanation in an Ory error body: errorGeneric's `error.reason`, then `error.message`;
 * for OAuth2 errors (`{error: "invalid_request", error_description}`) the description, then the code.
 * Undefined when the body carries neither.
 */
export function errorReason(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const inner = body.error;
  if (isObject(inner)) return text(inner.reason) ?? text(inner.message);
  if (typeof inner === 'string') return text(body.error_description) ?? text(inner);
  return undefined;
}

/**
 * The HTTP status an error stands for, whatever carried it: an upstream error (`status`/`statusCode`),
 * an axios error (`response.status`), a tRPC client error (`data.httpStatus`) or an errorGeneric body
 * (`error.code`). Undefined when none is known.
 */
export function errorStatus(error: unknown): number | undefined {
  if (!isObject(error)) return undefined;
  const candidates = [
    error.status,
    error.statusCode,
    isObject(error.response) ? error.response.status : undefined,
    isObject(error.data) ? error.data.httpStatus : undefined,
    isObject(error.error) ? error.error.code : undefined,
  ];
  return candidates.find((c): c is number => typeof c === 'number' && Number.isInteger(c));
}

/**
 * The text of any error: the reason in an Ory body (the error itself, `response.data` of axios or
 * `body`), else a non-empty `message`, else a non-empty string error. Undefined when there is none.
 */
export function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') return text(error);
  if (!isObject(error)) return undefined;
  return (
    errorReason(error) ??
    (isObject(error.response) ? errorReason(error.response.data) : undefined) ??
    errorReason(error.body) ??
    text(error.message)
  );
}

/**
 * Spec §8 generic handler toast: '<context message>: <error>', context 'An error occurred' by default.
 * When the error has no text, the fallback text with the support address stands in for it.
 */
export function genericErrorMessage(error: unknown, supportEmail: string, context?: string): string {
  return contextErrorMessage(errorText(error) ?? genericFallbackMessage(supportEmail), context);
}

export type CustomDomainAction = 'fetch' | 'add' | 'remove' | 'update';

/** Spec §8: what the user is told when a custom-domain call fails. */
export function customDomainErrorMessage(action: CustomDomainAction, error: unknown): string {
  switch (action) {
    case 'fetch':
      return errorText(error) ?? MESSAGES.customDomainsFetchUnknown;
    case 'add':
      return errorStatus(error) === 409
        ? MESSAGES.customDomainInUse
        : (errorText(error) ?? MESSAGES.customDomainAddFailed);
    case 'remove':
      return MESSAGES.customDomainRemoveFailed;
    case 'update':
      return MESSAGES.customDomainUpdateFailed;
  }
}

/** Spec §8: what the user is told when a custom-domain call succeeds. */
export const CUSTOM_DOMAIN_SUCCESS_MESSAGES = {
  add: MESSAGES.customDomainAdded,
  remove: MESSAGES.customDomainRemoved,
  update: MESSAGES.customDomainUpdated,
} as const;

/** Spec §5: the project subscription query refuses to run without a subscription_id. */
export function requireProjectSubscriptionId(project: { subscription_id?: string | null } | null | undefined): string {
  const id = project?.subscription_id;
  if (typeof id !== 'string' || id === '') throw new Error(MESSAGES.projectHasNoSubscription);
  return id;
}

/** Spec §5: the custom-domain list needs a project id. */
export function requireCustomDomainsProjectId(projectId: string | null | undefined): string {
  if (typeof projectId !== 'string' || projectId === '') throw new Error(MESSAGES.customDomainsProjectIdRequired);
  return projectId;
}

/** Spec §5: the active-project lookup fails when the answer has no project_id. */
export function requireActiveProjectId(answer: { project_id?: string | null } | null | undefined): string {
  const id = answer?.project_id;
  if (typeof id !== 'string' || id === '') throw new Error(MESSAGES.noActiveProject);
  return id;
}

/** True for the 'No active project found' failure, wherever it was raised (message or tRPC NOT_FOUND). */
export function isNoActiveProjectError(error: unknown): boolean {
  return isObject(error) && typeof error.message === 'string' && error.message.includes(MESSAGES.noActiveProject);
}

/**
 * Spec §8: the active-project lookup is not retried on 401 or 'No active project found'; otherwise up
 * to 3 retries. `failureCount` counts failures before this one (0 on the first), as TanStack Query does.
 */
export function shouldRetryActiveProject(failureCount: number, error: unknown): boolean {
  if (errorStatus(error) === 401 || isNoActiveProjectError(error)) return false;
  return failureCount < ACTIVE_PROJECT_MAX_RETRIES;
}

/** True for an answer of 400–499: the request itself was refused, so asking again gives the same answer. */
export function isClientError(error: unknown): boolean {
  const status = errorStatus(error);
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * Spec §9: the default query retry rule: up to 3 retries, but never after a 4xx answer (a missing or
 * forbidden resource stays missing; retrying only delays the error by seconds).
 */
export function shouldRetryQuery(failureCount: number, error?: unknown): boolean {
  if (isClientError(error)) return false;
  return failureCount < DEFAULT_QUERY_RETRIES;
}

/** Spec §9: the delay before retry number failureCount + 1: 1 s, 2 s, 4 s, … capped at 30000 ms. */
export function queryRetryDelay(failureCount: number): number {
  const n = Math.max(0, failureCount);
  return Math.min(RETRY_DELAY_BASE_MS * 2 ** n, RETRY_DELAY_CAP_MS);
}

/**
 * Spec §4 and §8: workspace loading that answers 403 yields `fallback` (no error); every other failure
 * is rethrown.
 */
export async function withForbiddenFallback<T, F>(load: () => Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await load();
  } catch (error) {
    if (errorStatus(error) === 403) return fallback;
    throw error;
  }
}
