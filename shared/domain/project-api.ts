/**
 * Where a project's own API (the data plane) lives: one URL template with {slug}. The cloud's is
 * below; a deployment may configure another (the server's PROJECT_API_URL), which should reach the
 * client from the server's configuration.
 */
export const PROJECT_API_URL_TEMPLATE = 'https://{slug}.projects.oryapis.com';

/** The project's API endpoint, from its slug. */
export function projectApiUrl(slug: string, template: string = PROJECT_API_URL_TEMPLATE): string {
  return template.replace('{slug}', encodeURIComponent(slug)).replace(/\/+$/, '');
}

/** Spec §2: the hosted sign-in pages live at {base}/login and {base}/registration. */
export function hostedSignInUrls(slug: string, template: string = PROJECT_API_URL_TEMPLATE): { base: string; login: string; registration: string } {
  const base = `${projectApiUrl(slug, template)}/ui`;
  return { base, login: `${base}/login`, registration: `${base}/registration` };
}
