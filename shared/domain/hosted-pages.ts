/** The pages every project hosts for its end users, under its API endpoint at `/ui/{page}`. */
export const HOSTED_PAGES = ['login', 'registration', 'recovery', 'verification', 'settings', 'error', 'consent'] as const;
export type HostedPage = (typeof HOSTED_PAGES)[number];

/** Where a project's hosted page answers, given the project's API endpoint. */
export const hostedPageUrl = (apiUrl: string, page: HostedPage) => `${apiUrl.replace(/\/+$/, '')}/ui/${page}`;
