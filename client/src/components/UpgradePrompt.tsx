import { cheapestPlanFor } from '../../../shared/domain/plan-quotas';
import { planDisplayName } from '../../../shared/domain/plans';
import { errorId } from '../lib/errors';
import { ROUTES } from '../routes';
import { LinkButton } from './Button';

const FEATURE_NAMES: Record<string, string> = {
  collaborator_seats: 'more team members',
  custom_domains: 'custom domains',
  branding_themes: 'more branding themes',
  production_projects: 'more production projects',
  organizations: 'organizations',
  onboarding_portal: 'the onboarding portal',
  saml_sp: 'SAML sign-in',
};

/** The quota failure of an error (`quota_exceeded` / `feature_not_available`), or null for any other error. */
export function quotaFailure(error: unknown): 'quota_exceeded' | 'feature_not_available' | null {
  const id = errorId(error);
  return id === 'quota_exceeded' || id === 'feature_not_available' ? id : null;
}

/**
 * Names the cheapest plan that allows one more unit of `feature` (or the feature at all) and links to where
 * the plan changes: the workspace's subscription page, or for a project outside any workspace its billing
 * page. `units` is how many the caller needs in all.
 */
export function UpgradePrompt({ feature, units, workspaceId, projectId }: { feature: string; units: number; workspaceId?: string | null | undefined; projectId?: string | null | undefined }) {
  const plan = cheapestPlanFor(feature, units);
  const what = FEATURE_NAMES[feature] ?? feature.replaceAll('_', ' ');
  return (
    <div className="banner" role="status" data-testid="upgrade-prompt">
      <p>
        Your plan does not include {what}.{' '}
        {plan ? (
          <>
            The <strong>{planDisplayName(plan)}</strong> plan does.
          </>
        ) : (
          'Talk to us about a plan that does.'
        )}
      </p>
      {plan && (workspaceId || projectId) && (
        <LinkButton
          href={workspaceId ? ROUTES.workspaceSubscription.build({ workspace: workspaceId }) : ROUTES.projectBilling.build({ project: projectId! })}
          variant="primary"
          data-testid="upgrade-link"
        >
          See {planDisplayName(plan)}
        </LinkButton>
      )}
    </div>
  );
}
