/** Where a project serves the onboarding portal of a link: `{project API base}/ui/onboarding/{token}`. */
export const ONBOARDING_PORTAL_PATH = '/ui/onboarding';

/** The portal's address for a link token, under the project's API base. */
export const onboardingPortalUrl = (apiBase: string, token: string) => `${apiBase.replace(/\/+$/, '')}${ONBOARDING_PORTAL_PATH}/${encodeURIComponent(token)}`;
