import { useAuditLog } from '../audit/recorder';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { useAdminAuthorization, type AdminDeps } from '../kernel/admin-context';
import { PROJECT_API_PREFIX, projectApiPath, tenantOf, useProjectTenant } from '../kernel/tenant';
import { projectRevisions, projects } from '../project/schema';
import type { Queryable } from '../db/types';
import { installErrorHandler, OryError, type ErrorSurface } from '../kernel/errors';
import { registerOAuth2Admin } from './admin-routes';
import { HydraError } from './hydra-clients';
import { registerConsoleOAuth2 } from './console';
import { redeemDeviceVerifier } from './device';
import { redeemLogoutVerifier } from './logout';
import { servePublicOAuth2 } from './mount';
import { registerDynamicClients } from './registration';
import { clientScopes, ID_TOKEN_SET, pgArtefactStore, pgClientRepository, pgKeySets, projectKeys } from './pg-store';
import { createServerRegistry, type ProjectServer } from './registry';
import { resolveSettings } from './settings';
import { recordEvent } from '../event/record';
import { meter, TOKEN_METRIC } from '../billing/usage';
import { surviveConnectionLoss } from '../db/errors';
import { CONSOLE_NID } from '../kernel/tenant-id';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict' };

/** Failures Hydra's routes leave to the stack (a lost database, a bug) are answered as the admin API's are. */
const OAUTH2_ADMIN_ERRORS: ErrorSurface = { name: 'oauth2 admin', fieldDetails: true };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The project's authorization server of a request on its data plane (the hosted login and consent pages accept its challenges). */
export interface OAuth2Servers {
  serverFor(req: FastifyRequest): Promise<ProjectServer>;
}

/** `services.oauth2.config` of the project's current revision: the next request sees a change at once. */
export async function oauth2Config(q: Queryable, projectId: string): Promise<Record<string, unknown>> {
  const [row] = await q.orm
    .select({ services: projectRevisions.services })
    .from(projects)
    .innerJoin(projectRevisions, eq(projectRevisions.id, projects.current_revision_id))
    .where(eq(projects.id, projectId));
  const oauth2 = isObject(row?.services) ? row.services.oauth2 : undefined;
  const config = isObject(oauth2) ? oauth2.config : undefined;
  return isObject(config) ? config : {};
}

/**
 * Every project's OAuth2 and OpenID Connect server on its data plane (`/project-api/{slug}`): Hydra's public
 * paths answered by the project's oidc-provider, and Hydra's admin API (clients, login and consent requests,
 * introspection) behind the project's API key or a member's console session, as the identity admin API is.
 */
export async function registerOAuth2(app: FastifyInstance, deps: AdminDeps): Promise<OAuth2Servers> {
  const { ctx } = deps;
  const registry = createServerRegistry();
  const now = () => Math.floor(ctx.clock.now().getTime() / 1000);

  const serverOf = async (req: FastifyRequest, ownUrls?: { login: string; consent: string }): Promise<ProjectServer> => {
    const tenant = tenantOf(req);
    const nid = tenant.nid;
    const [config, keys] = await Promise.all([oauth2Config(ctx.db, nid), projectKeys(ctx.db, nid, ctx.clock.now())]);
    const settings = resolveSettings(config);
    const clients = pgClientRepository(ctx.db, nid);
    return registry.serverFor({
      // The console's own server answers at the stack's root and on the console's origin: one per issuer.
      projectId: nid === CONSOLE_NID ? `${nid} ${tenant.base}` : nid,
      // A project may name its own issuer (Hydra's urls.self.issuer); its paths still answer on its base.
      issuer: nid === CONSOLE_NID ? tenant.base : (settings.urls.issuer ?? tenant.base),
      publicBase: tenant.base,
      // The console's own server serves no dynamic registration, so its discovery does not name it.
      registration: nid !== CONSOLE_NID,
      config,
      artefacts: pgArtefactStore(ctx.db, nid),
      clients,
      clientScopes: () => clientScopes(ctx.db, nid),
      signingKeys: async () => keys.signing,
      cookieKeys: async () => keys.cookies,
      // Until the project names its own login, consent and logout pages, its hosted pages (`{base}/ui/…`) answer.
      fallbackUrls: ownUrls ?? {
        login: settings.urls.login ?? `${tenant.uiUrl}/login`,
        consent: settings.urls.consent ?? `${tenant.uiUrl}/consent`,
        logout: settings.urls.logout ?? `${tenant.uiUrl}/logout`,
        device: settings.urls.deviceVerification ?? `${tenant.uiUrl}/device`,
      },
      issuerKeys: (issuer) => pgKeySets(ctx.db, nid).get(issuer),
      now,
      // Every token response is an event of the project and one unit of its m2m_token_issuance usage, written
      // after the token was answered: a lost database connection delays them rather than losing them.
      onGrant: (grantType, clientId) => {
        // The console's own tenant is no project: nothing to record or meter.
        if (nid === CONSOLE_NID) return;
        // Dated when the token was issued, however late the writes land.
        const at = ctx.clock.now();
        const issuedAt = { ...ctx.clock, now: () => at };
        void Promise.all([
          surviveConnectionLoss(() => recordEvent(ctx.db, issuedAt, nid, 'OAuth2TokenIssued', { grant_type: grantType, client_id: clientId })),
          surviveConnectionLoss(() => meter(ctx.db, issuedAt, nid, TOKEN_METRIC)),
        ]).catch((err: unknown) => ctx.log.error({ err }, 'token issuance not recorded'));
      },
    });
  };

  const serverFor = (req: FastifyRequest) => serverOf(req);

  await app.register(
    async (scope) => {
      installErrorHandler(scope, ctx.log, OAUTH2_ADMIN_ERRORS);
      useProjectTenant(scope, ctx);
      useAdminAuthorization(scope, deps);
      useAuditLog(scope, ctx, 'data-plane');
      await scope.register(async (inner) =>
        registerOAuth2Admin(inner, {
          now: () => ctx.clock.now(),
          // Hydra answers every refusal as an OAuth2 error (errorOAuth2), the stack's 401 and 403 included.
          translate: (err) =>
            err instanceof OryError && err.status < 500 ? new HydraError(err.status, STATUS_TEXT[err.status] ?? 'error', err.reason) : undefined,
          async projectOf(req) {
            const tenant = tenantOf(req);
            const config = await oauth2Config(ctx.db, tenant.nid);
            return {
              clients: pgClientRepository(ctx.db, tenant.nid),
              subjectTypes: resolveSettings(config).subjectTypes,
              keySets: pgKeySets(ctx.db, tenant.nid),
              artefacts: pgArtefactStore(ctx.db, tenant.nid),
              signingSet: ID_TOKEN_SET,
              server: () => serverFor(req),
            };
          },
        }),
      );
    },
    { prefix: PROJECT_API_PREFIX },
  );

  await app.register(
    async (scope) => {
      useProjectTenant(scope, ctx);
      servePublicOAuth2(scope, async (req) => {
        const tenant = tenantOf(req);
        const server = await serverFor(req);
        return {
          provider: server.provider,
          basePath: projectApiPath(tenant.project?.slug ?? ''),
          redeemLogout: (verifier) => redeemLogoutVerifier(server, verifier),
          redeemDevice: (verifier) => redeemDeviceVerifier(server, verifier),
          errorUrl: resolveSettings(await oauth2Config(ctx.db, tenant.nid)).urls.error ?? `${tenant.uiUrl}/error`,
          learnScopes: server.learnScopes,
        };
      });
    },
    { prefix: PROJECT_API_PREFIX },
  );
  // Dynamic client registration on the project's public paths, while its config enables it.
  await app.register(
    async (scope) => {
      useProjectTenant(scope, ctx);
      registerDynamicClients(scope, {
        now: () => ctx.clock.now(),
        async projectOf(req) {
          const tenant = tenantOf(req);
          const settings = resolveSettings(await oauth2Config(ctx.db, tenant.nid));
          return {
            ...settings.dynamicRegistration,
            clients: pgClientRepository(ctx.db, tenant.nid),
            subjectTypes: settings.subjectTypes,
            publicBase: tenant.base,
          };
        },
      });
    },
    { prefix: PROJECT_API_PREFIX },
  );
  await registerConsoleOAuth2(app, ctx, serverOf);
  return { serverFor };
}

