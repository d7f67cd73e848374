import type { OnboardingPortalLinkView, OrganizationView } from '../../shared/schemas/organizations';
import type { OnboardingPortalLinkRow, OrganizationRow } from './schema';

/** A row as Ory's organization (optional fields only when set). */
export function organizationView(row: OrganizationRow): OrganizationView {
  return {
    id: row.id,
    label: row.label,
    domains: row.domains,
    created_at: row.created_at.toISOString(),
    ...(row.default_region ? { default_region: row.default_region as OrganizationView['default_region'] } : {}),
    ...(row.session_lifespan ? { session_lifespan: row.session_lifespan } : {}),
  };
}

/** A row as Ory's onboardingPortalLink. */
export function onboardingLinkView(row: OnboardingPortalLinkRow): OnboardingPortalLinkView {
  return {
    id: row.id,
    organization_id: row.organization_id,
    project_id: row.project_id,
    value: row.value,
    enable_sso: row.enable_sso,
    enable_scim: row.enable_scim,
    custom_hostname_id: row.custom_hostname_id,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}
