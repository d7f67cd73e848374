import { CourierApi, IdentityApi, JwkApi, OAuth2Api, PermissionApi, RelationshipApi } from '@ory/client';
import { UpstreamError } from './errors';
import { createSdkTransport } from './sdk';

/** A project slug as the control plane makes them: lower-case letters, digits and inner hyphens. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const PROJECT_API = 'project-api';

/**
 * Checks a data-plane URL template once: http(s), exactly where `{slug}` goes, and a base URL that a slug
 * can only extend (in the host name or as one path segment), never redirect elsewhere.
 */
export function checkProjectApiTemplate(template: string): string {
  const trimmed = template.trim().replace(/\/+$/, '');
  if (!trimmed.includes('{slug}')) throw new Error(`PROJECT_API_URL must contain {slug}: ${trimmed}`);
  const url = new URL(trimmed.replaceAll('{slug}', 'slug'));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PROJECT_API_URL must be an http(s) URL: ${trimmed}`);
  if (url.search || url.hash || url.username || url.password) throw new Error(`PROJECT_API_URL must have no query, fragment or credentials: ${trimmed}`);
  return trimmed;
}

/** The data plane's base URL for one project; refuses anything that is not plainly a slug. */
export function projectApiBaseUrl(template: string, slug: string): string {
  if (!SLUG_PATTERN.test(slug)) {
    throw new UpstreamError(502, 'The project has no usable slug', undefined, {
      kind: 'invalid_response',
      upstream: 'backoffice',
      detail: `slug ${JSON.stringify(slug.slice(0, 80))} does not match ${SLUG_PATTERN}`,
    });
  }
  return template.replaceAll('{slug}', slug);
}

/** Typed clients for one project's data plane (identities, OAuth2, relationships, permissions, courier). */
export interface ProjectApis {
  basePath: string;
  identity: IdentityApi;
  oauth2: OAuth2Api;
  relationship: RelationshipApi;
  permission: PermissionApi;
  courier: CourierApi;
  jwk: JwkApi;
}

export interface ProjectApiCall {
  /** The browser's Cookie header; only the session cookie(s) are forwarded. */
  cookie?: string | undefined;
  requestId?: string | undefined;
  /** The request's deadline; every call made through these clients ends when it fires. */
  signal: AbortSignal;
}

export type ProjectApiFactory = (slug: string, call: ProjectApiCall) => ProjectApis;

/**
 * Builds `@ory/client` clients whose base path comes only from the configured template and the project's
 * slug, through the one SDK transport (`sdk.ts`): the session cookie goes to that origin and nowhere else
 * (no redirects are followed), every call carries the request's deadline, and every failure leaves as an
 * UpstreamError, or as the spec's RequiredParameterError when a required parameter is missing.
 */
export function createProjectApiFactory(options: { template: string; timeoutMs: number }): ProjectApiFactory {
  const template = checkProjectApiTemplate(options.template);
  const transport = createSdkTransport({ upstream: PROJECT_API, timeoutMs: options.timeoutMs });

  return (slug, call) => {
    const basePath = projectApiBaseUrl(template, slug);
    const configuration = transport.configuration(basePath, call);
    return {
      basePath,
      identity: transport.guarded(new IdentityApi(configuration)),
      oauth2: transport.guarded(new OAuth2Api(configuration)),
      relationship: transport.guarded(new RelationshipApi(configuration)),
      permission: transport.guarded(new PermissionApi(configuration)),
      courier: transport.guarded(new CourierApi(configuration)),
      jwk: transport.guarded(new JwkApi(configuration)),
    };
  };
}
