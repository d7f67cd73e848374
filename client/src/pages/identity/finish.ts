import { appPathFromReturnTo, withQueryParam } from '../../lib/navigation';
import { continueRedirect } from './ory-flow';
import type { ContinueWith } from './flow-types';

/**
 * Where a finished login or registration goes: the continue_with redirect or the flow's return_to
 * when it is on our origin, else '/', marked with after-login / after-registration for the shell.
 */
export function finishTarget(
  marker: 'after-login' | 'after-registration',
  candidates: ReadonlyArray<string | null | undefined>,
  continueWith?: ContinueWith[],
  origin: string = window.location.origin,
): string {
  const options = [continueRedirect(continueWith), ...candidates];
  let target = '/';
  for (const option of options) {
    const path = appPathFromReturnTo(option, '', origin);
    if (path && !path.startsWith('/login') && !path.startsWith('/registration')) {
      target = path;
      break;
    }
  }
  return withQueryParam(target, marker, 'true');
}
