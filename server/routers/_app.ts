import { createCallerFactory, router } from '../trpc/init';
import { apiKeysRouter } from './api-keys/router';
import { auditLogRouter } from './audit-log/router';
import { authRouter } from './auth/router';
import { billingRouter } from './billing/router';
import { brandingRouter } from './branding/router';
import { domainsRouter } from './domains/router';
import { identitiesRouter } from './identities/router';
import { invitesRouter } from './invites/router';
import { membersRouter } from './members/router';
import { metricsRouter } from './metrics/router';
import { eventStreamsRouter } from './event-streams/router';
import { actionsRouter } from './actions/router';
import { messagingRouter } from './messaging/router';
import { oauth2ClientsRouter } from './oauth2-clients/router';
import { oauth2ConfigRouter } from './oauth2-config/router';
import { projectConfigRouter } from './project-config/router';
import { oauth2KeysRouter } from './oauth2-keys/router';
import { oauth2SessionsRouter } from './oauth2-sessions/router';
import { oauth2ConsentRouter } from './oauth2-consent/router';
import { oauth2TrustedIssuersRouter } from './oauth2-trusted-issuers/router';
import { permissionsRouter } from './permissions/router';
import { permissionRulesRouter } from './permission-rules/router';
import { projectHistoryRouter } from './project-history/router';
import { projectsRouter } from './projects/router';
import { quotaRouter } from './quota/router';
import { relationshipsRouter } from './relationships/router';
import { schemasRouter } from './schemas/router';
import { sessionsRouter } from './sessions/router';
import { socialProvidersRouter } from './social-providers/router';
import { samlProvidersRouter } from './saml-providers/router';
import { systemRouter } from './system/router';
import { onboardingLinksRouter, organizationsRouter } from './organizations/router';
import { workspacesRouter } from './workspaces/router';

/** Every procedure of the console; the procedure names are its public typed API. */
export const appRouter = router({
  auth: authRouter,
  workspaces: workspacesRouter,
  projects: projectsRouter,
  permissions: permissionsRouter,
  members: membersRouter,
  invites: invitesRouter,
  apiKeys: apiKeysRouter,
  quota: quotaRouter,
  branding: brandingRouter,
  billing: billingRouter,
  identities: identitiesRouter,
  sessions: sessionsRouter,
  messaging: messagingRouter,
  schemas: schemasRouter,
  oauth2Clients: oauth2ClientsRouter,
  oauth2Config: oauth2ConfigRouter,
  projectConfig: projectConfigRouter,
  projectHistory: projectHistoryRouter,
  auditLog: auditLogRouter,
  oauth2Sessions: oauth2SessionsRouter,
  oauth2Consent: oauth2ConsentRouter,
  oauth2Keys: oauth2KeysRouter,
  oauth2TrustedIssuers: oauth2TrustedIssuersRouter,
  relationships: relationshipsRouter,
  permissionRules: permissionRulesRouter,
  socialProviders: socialProvidersRouter,
  samlProviders: samlProvidersRouter,
  organizations: organizationsRouter,
  onboardingLinks: onboardingLinksRouter,
  domains: domainsRouter,
  metrics: metricsRouter,
  eventStreams: eventStreamsRouter,
  actions: actionsRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;

/** A server-side caller for a context (tests, and anything that calls procedures without HTTP). */
export const createCaller = createCallerFactory(appRouter);
