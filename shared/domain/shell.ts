import { SESSION_FORBIDDEN_AAL } from '../constants';

/** Spec §2: the query parameters the application shell reads. */
export const SHELL_QUERY_PARAMS = {
  afterRecovery: 'after-recovery',
  afterLogin: 'after-login',
  afterRegistration: 'after-registration',
  preferredPlan: 'preferred_plan',
  /** The spec's returnTo parameter, spelled as the identity provider's flows spell it. */
  returnTo: 'return_to',
  aal: 'aal',
} as const;

export const LOGIN_PATH = '/login';

/** Spec §2: the event registration pushes to the page data layer. */
export const SIGN_UP_DATA_LAYER_EVENT = 'sign_up';

export interface ShellQuery {
  /** after-recovery=true: show 'Your changes have been saved.' */
  afterRecovery: boolean;
  /** after-login=true: identify the user to the customer-analytics tool. */
  afterLogin: boolean;
  /** after-registration=true: identify the user and push a sign_up event. */
  afterRegistration: boolean;
  /** preferred_plan, to store under 'preferred-plan'; null when absent or empty. */
  preferredPlan: string | null;
  /** The search string to show instead ('' or '?…'), with after-login and after-registration removed. */
  search: string;
}

/** Spec §2: what the shell does with the current query string (with or without its leading '?'). */
export function readShellQuery(search: string): ShellQuery {
  const params = new URLSearchParams(search);
  const flag = (name: string) => params.get(name) === 'true';
  const result = {
    afterRecovery: flag(SHELL_QUERY_PARAMS.afterRecovery),
    afterLogin: flag(SHELL_QUERY_PARAMS.afterLogin),
    afterRegistration: flag(SHELL_QUERY_PARAMS.afterRegistration),
    preferredPlan: params.get(SHELL_QUERY_PARAMS.preferredPlan) || null,
  };
  params.delete(SHELL_QUERY_PARAMS.afterLogin);
  params.delete(SHELL_QUERY_PARAMS.afterRegistration);
  const rest = params.toString();
  return { ...result, search: rest === '' ? '' : `?${rest}` };
}

/** Spec §4: a session with active true means the user is authenticated. */
export function isAuthenticated(session: { active?: boolean | null } | null | undefined): boolean {
  return session?.active === true;
}

/**
 * Spec §2: a page that requires authentication sends the user to login once the session has been
 * fetched and the user is not authenticated (never while the session is still loading).
 */
export function mustSendToLogin(state: { requiresAuth: boolean; sessionFetched: boolean; authenticated: boolean }): boolean {
  return state.requiresAuth && state.sessionFetched && !state.authenticated;
}

/** Spec §2: the login route with a returnTo parameter (`return_to`) holding the current path. */
export function loginRedirectPath(currentPath: string): string {
  const params = new URLSearchParams({ [SHELL_QUERY_PARAMS.returnTo]: currentPath });
  return `${LOGIN_PATH}?${params.toString()}`;
}

/**
 * Spec §4: a 403 on the session fetch, when not on the login page, sends the user to the login route
 * with aal=aal2. Answers that route, or null when the user stays.
 */
export function sessionForbiddenRedirect(status: number | undefined, pathname: string): string | null {
  if (status !== 403) return null;
  if (pathname === LOGIN_PATH || pathname.startsWith(`${LOGIN_PATH}/`)) return null;
  return `${LOGIN_PATH}?${SHELL_QUERY_PARAMS.aal}=${SESSION_FORBIDDEN_AAL}`;
}
