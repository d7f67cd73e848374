/**
 * Where a project's own API (the data plane) lives: one URL template with {slug}, the server's
 * PROJECT_API_URL. The client never guesses it: it reads the project's endpoint from the server
 * (`projects.endpoint`), so a project of the embedded local stack shows the local stack's address.
 */

/** The project's API endpoint, from its slug and the deployment's template. */
export function projectApiUrl(slug: string, template: string): string {
  return template.replace('{slug}', encodeURIComponent(slug)).replace(/\/+$/, '');
}

/** Spec §2: the hosted sign-in pages live at {base}/login and {base}/registration of the project's API. */
export function hostedSignInUrls(endpoint: string): { base: string; login: string; registration: string } {
  const base = `${endpoint.replace(/\/+$/, '')}/ui`;
  return { base, login: `${base}/login`, registration: `${base}/registration` };
}
