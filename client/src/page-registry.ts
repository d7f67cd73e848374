import type { LazyPage, PageId } from './lib/route-def';
import { lazyPage } from './nav/lazy-page';

/**
 * The code of every page, by the id its route names (`page: 'identities'`). Kept apart from the route
 * registry, so a page that links to another route (ROUTES.x.build) imports no page code, and the registry
 * no page: the router, the preloader and route prefetching look pages up here.
 */
export const PAGES = {
  login: lazyPage(() => import('./pages/identity/LoginPage')),
  registration: lazyPage(() => import('./pages/identity/RegistrationPage')),
  recovery: lazyPage(() => import('./pages/identity/RecoveryPage')),
  verification: lazyPage(() => import('./pages/identity/VerificationPage')),
  settings: lazyPage(() => import('./pages/identity/SettingsPage')),
  home: lazyPage(() => import('./pages/general/HomePage')),
  notFound: lazyPage(() => import('./pages/general/NotFoundPage')),
  serverError: lazyPage(() => import('./pages/general/ServerErrorPage')),
  error: lazyPage(() => import('./pages/general/ErrorPage')),
  soon: lazyPage(() => import('./nav/SoonPage')),
  projects: lazyPage(() => import('./pages/projects/ProjectsPage')),
  createProject: lazyPage(() => import('./pages/projects/CreateProjectPage')),
  getStarted: lazyPage(() => import('./pages/projects/GetStartedPage')),
  projectSettings: lazyPage(() => import('./pages/projects/ProjectSettingsPage')),
  workspaces: lazyPage(() => import('./pages/workspaces/WorkspacesPage')),
  createWorkspace: lazyPage(() => import('./pages/workspaces/CreateWorkspacePage')),
  workspace: lazyPage(() => import('./pages/workspaces/WorkspacePage')),
  workspaceProjects: lazyPage(() => import('./pages/workspaces/WorkspaceProjectsPage')),
  workspaceSettings: lazyPage(() => import('./pages/workspaces/WorkspaceSettingsPage')),
  invites: lazyPage(() => import('./pages/team/InvitesPage')),
  collaborators: lazyPage(() => import('./pages/team/CollaboratorsPage')),
  projectBilling: lazyPage(() => import('./pages/billing/ProjectBillingPage')),
  identities: lazyPage(() => import('./pages/identities/IdentitiesPage')),
  identity: lazyPage(() => import('./pages/identities/IdentityDetailPage')),
  sessions: lazyPage(() => import('./pages/identities/SessionsPage')),
  relationships: lazyPage(() => import('./pages/permissions/RelationshipsPage')),
  permissionRules: lazyPage(() => import('./pages/permissions/PermissionRulesPage')),
  session: lazyPage(() => import('./pages/identities/SessionDetailPage')),
  identitySchema: lazyPage(() => import('./pages/identity-schema/IdentitySchemaPage')),
  workspaceBilling: lazyPage(() => import('./pages/billing/WorkspaceBillingPage')),
  workspaceSubscription: lazyPage(() => import('./pages/billing/WorkspaceSubscriptionPage')),
  workspaceMembers: lazyPage(() => import('./pages/team/WorkspaceMembersPage')),
  workspaceApiKeys: lazyPage(() => import('./pages/team/WorkspaceApiKeysPage')),
  projectAdvanced: lazyPage(() => import('./pages/team/ProjectAdvancedPage')),
  emailConfiguration: lazyPage(() => import('./pages/messaging/EmailConfigurationPage')),
  smsConfiguration: lazyPage(() => import('./pages/messaging/SmsConfigurationPage')),
  emailTemplates: lazyPage(() => import('./pages/messaging/EmailTemplatesPage')),
  emailDelivery: lazyPage(() => import('./pages/messaging/EmailDeliveryPage')),
  emailMessage: lazyPage(() => import('./pages/messaging/EmailMessagePage')),

  oauth2Clients: lazyPage(() => import('./pages/oauth2/OAuth2ClientsPage')),
  oauth2Endpoints: lazyPage(() => import('./pages/oauth2/OAuth2EndpointsPage')),
  oauth2Lifespans: lazyPage(() => import('./pages/oauth2/OAuth2LifespansPage')),
  oauth2Strategies: lazyPage(() => import('./pages/oauth2/OAuth2StrategiesPage')),
  oauth2Configure: lazyPage(() => import('./pages/oauth2/OAuth2ConfigurePage')),
  oauth2OpenId: lazyPage(() => import('./pages/oauth2/OAuth2OpenIdPage')),
  oauth2Urls: lazyPage(() => import('./pages/oauth2/OAuth2UrlsPage')),
  oauth2Cookies: lazyPage(() => import('./pages/oauth2/OAuth2CookiesPage')),
} satisfies Record<PageId, LazyPage>;
