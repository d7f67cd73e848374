import { createHash } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { ChallengeDeps } from './challenges';
import { createProvider, OIDC_SCOPES } from './provider';
import { createScopeBook, type ScopeBook } from './scope-strategy';
import { resolveSettings } from './settings';
import type { ArtefactStore, ClientStore, SigningKey, StoredJwk } from './storage';

/** What a project's authorization server is built from. */
export interface ServerSource {
  projectId: string;
  issuer: string;
  /** Where the project's public paths answer (the issuer when left out). */
  publicBase?: string;
  /** Whether Hydra's dynamic registration paths answer on this server (and discovery names them). */
  registration?: boolean;
  /** The project's `services.oauth2.config`. */
  config: unknown;
  artefacts: ArtefactStore;
  clients: ClientStore;
  /** Every scope the project's clients name. */
  clientScopes(): Promise<string[]>;
  signingKeys(): Promise<SigningKey[]>;
  cookieKeys(): Promise<string[]>;
  fallbackUrls: { login: string; consent: string; logout?: string; device?: string };
  /** The public keys a trusted JWT-grant issuer registered. */
  issuerKeys?(issuer: string): Promise<StoredJwk[]>;
  now(): number;
  /** Told of every token the token endpoint issues (the grant type and the client). */
  onGrant?(grantType: string, clientId: string): void;
}

export type ProjectServer = ChallengeDeps & {
  provider: Provider;
  /** Where the project's public paths answer, whatever its issuer. */
  publicBase: string;
  /** Makes the scopes of a request's `scope` parameter known to the server before it answers (see scope-strategy.ts). */
  learnScopes(scope: string): void;
};

/**
 * One authorization server per project, kept while what it was built from stays the same: oidc-provider fixes
 * its configuration when built, so a changed setting, key or client scope builds a new one on the next request.
 */
export function createServerRegistry() {
  const servers = new Map<string, { fingerprint: string; server: ProjectServer; scopeBook: ScopeBook }>();
  return {
    async serverFor(source: ServerSource): Promise<ProjectServer> {
      const [scopes, keys, cookieKeys] = await Promise.all([source.clientScopes(), source.signingKeys(), source.cookieKeys()]);
      const fingerprint = createHash('sha256')
        .update(JSON.stringify([source.issuer, source.publicBase ?? null, source.config ?? null, [...new Set(scopes)].sort(), keys.map((k) => k.kid), cookieKeys]))
        .digest('base64url');
      const cached = servers.get(source.projectId);
      // A server that learned as many scopes as it may is built anew, with what the project's clients name.
      if (cached?.fingerprint === fingerprint && !cached.scopeBook.full) return cached.server;
      const settings = resolveSettings(source.config);
      const scopeBook = createScopeBook([...OIDC_SCOPES, ...scopes], settings.scopeStrategy);
      const provider = createProvider({
        issuer: source.issuer,
        publicBase: source.publicBase,
        registration: source.registration ?? true,
        settings,
        scopeBook,
        artefacts: source.artefacts,
        clients: source.clients,
        scopes,
        signingKeys: keys,
        cookieKeys,
        fallbackUrls: source.fallbackUrls,
        issuerKeys: source.issuerKeys,
        now: source.now,
      });
      provider.on('grant.success', (c) => source.onGrant?.(String(c.oidc.params?.grant_type ?? ''), c.oidc.client?.clientId ?? ''));
      const server: ProjectServer = {
        provider,
        clients: source.clients,
        artefacts: source.artefacts,
        now: source.now,
        publicBase: source.publicBase ?? source.issuer,
        learnScopes: (scope) => scopeBook.learn(scope),
      };
      servers.set(source.projectId, { fingerprint, server, scopeBook });
      return server;
    },
    forget(projectId: string) {
      servers.delete(projectId);
    },
  };
}
