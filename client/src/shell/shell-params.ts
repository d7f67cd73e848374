import toast from 'react-hot-toast';
import { PREFERRED_PLAN_STORAGE_KEY } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { CustomerAnalytics } from '../lib/analytics';
import { pushDataLayer } from '../lib/analytics';
import { withoutQueryParams } from '../lib/navigation';

export const AFTER_LOGIN = 'after-login';
export const AFTER_REGISTRATION = 'after-registration';
export const AFTER_RECOVERY = 'after-recovery';
export const PREFERRED_PLAN_PARAM = 'preferred_plan';

export interface IdentifiedUser {
  id: string;
  email?: string | undefined;
  name?: string | undefined;
}

export interface ShellParamEffects {
  /** Resolves the signed-in user to identify, or null. */
  loadUser: () => Promise<IdentifiedUser | null>;
  analytics: CustomerAnalytics;
  storage: Pick<Storage, 'setItem'>;
  replaceUrl: (path: string) => void;
  dataLayerTarget?: Window & { dataLayer?: unknown[] };
}

/** The preferred plan stored from the query string (spec §2; default null). */
export function readPreferredPlan(storage: Pick<Storage, 'getItem'> = window.localStorage): string | null {
  try {
    return storage.getItem(PREFERRED_PLAN_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Applies the shell's query-parameter rules (spec §2) to the current URL. Returns what it did, so
 * the rules can be tested without a browser.
 */
export function applyShellParams(pathWithSearch: string, effects: ShellParamEffects): string[] {
  const done: string[] = [];
  const params = new URL(pathWithSearch, 'http://app.invalid').searchParams;

  if (params.get(AFTER_RECOVERY) === 'true') {
    toast.success(MESSAGES.afterRecovery, { id: AFTER_RECOVERY });
    done.push('after-recovery-toast');
  }

  const plan = params.get(PREFERRED_PLAN_PARAM);
  if (plan) {
    try {
      effects.storage.setItem(PREFERRED_PLAN_STORAGE_KEY, plan);
      done.push('preferred-plan');
    } catch {
      // Storage may be unavailable (private mode); the plan is only a hint.
    }
  }

  const afterLogin = params.get(AFTER_LOGIN) === 'true';
  const afterRegistration = params.get(AFTER_REGISTRATION) === 'true';
  if (afterLogin || afterRegistration) {
    if (afterRegistration) {
      pushDataLayer({ event: 'sign_up' }, effects.dataLayerTarget);
      done.push('sign-up-event');
    }
    void effects
      .loadUser()
      .then((user) => {
        if (user) effects.analytics.identify(user.id, { email: user.email, name: user.name });
      })
      .catch(() => undefined);
    done.push('identify');
    const cleaned = withoutQueryParams(pathWithSearch, [AFTER_LOGIN, AFTER_REGISTRATION]);
    effects.replaceUrl(cleaned);
    done.push('params-removed');
  }
  return done;
}
