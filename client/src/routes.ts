import { lazy } from 'react';
import { defineRoute, type LayoutOptions, type RouteArea, type RouteDef } from './lib/route-def';

const page = {
  login: lazy(() => import('./pages/identity/LoginPage')),
  registration: lazy(() => import('./pages/identity/RegistrationPage')),
  recovery: lazy(() => import('./pages/identity/RecoveryPage')),
  verification: lazy(() => import('./pages/identity/VerificationPage')),
  settings: lazy(() => import('./pages/identity/SettingsPage')),
  home: lazy(() => import('./pages/general/HomePage')),
  notFound: lazy(() => import('./pages/general/NotFoundPage')),
  serverError: lazy(() => import('./pages/general/ServerErrorPage')),
  error: lazy(() => import('./pages/general/ErrorPage')),
  notAvailable: lazy(() => import('./pages/general/NotAvailablePage')),
  projects: lazy(() => import('./pages/projects/ProjectsPage')),
  createProject: lazy(() => import('./pages/projects/CreateProjectPage')),
  getStarted: lazy(() => import('./pages/projects/GetStartedPage')),
  projectSettings: lazy(() => import('./pages/projects/ProjectSettingsPage')),
  workspaces: lazy(() => import('./pages/workspaces/WorkspacesPage')),
  createWorkspace: lazy(() => import('./pages/workspaces/CreateWorkspacePage')),
  workspace: lazy(() => import('./pages/workspaces/WorkspacePage')),
  workspaceProjects: lazy(() => import('./pages/workspaces/WorkspaceProjectsPage')),
  workspaceSettings: lazy(() => import('./pages/workspaces/WorkspaceSettingsPage')),
};

const identityLayout = (pageTitle: string): LayoutOptions => ({
  minimalNavigation: true,
  skipFirstTimeExperience: true,
  navbarMenu: false,
  pageTitle,
});

/** A route whose page belongs to a later slice. */
function later<P extends string>(pattern: P, area: RouteArea, title: string, requiresAuth = true): RouteDef<P> {
  return defineRoute(pattern, {
    area,
    requiresAuth,
    available: false,
    page: page.notAvailable,
    layout: { pageTitle: title, breadcrumb: title },
  });
}

const P = '/projects/:project' as const;
const W = '/workspaces/:workspace' as const;

/** Every route of spec §2's table: one registry feeding router, navigation, breadcrumbs and links. */
export const ROUTES = {
  // General
  home: defineRoute('/', { area: 'general', page: page.home, layout: { pageTitle: 'Console', skipFirstTimeExperience: true } }),
  notFound: defineRoute('/404', { area: 'general', requiresAuth: false, page: page.notFound, layout: { pageTitle: 'Page not found', navbarMenu: false } }),
  serverError: defineRoute('/500', { area: 'general', requiresAuth: false, page: page.serverError, layout: { pageTitle: 'Server error', navbarMenu: false } }),
  error: defineRoute('/error', { area: 'general', requiresAuth: false, page: page.error, layout: { pageTitle: 'Error', navbarMenu: false } }),
  support: later('/support', 'general', 'Support'),
  login: defineRoute('/login', { area: 'identity', requiresAuth: false, page: page.login, layout: identityLayout('Sign in') }),
  oauth2Consent: later('/oauth2/consent', 'identity', 'Consent', false),
  recovery: defineRoute('/recovery', { area: 'identity', requiresAuth: false, page: page.recovery, layout: identityLayout('Recover your account') }),
  verification: defineRoute('/verification', { area: 'identity', requiresAuth: false, page: page.verification, layout: identityLayout('Verify your email') }),
  registration: defineRoute('/registration', { area: 'identity', requiresAuth: false, page: page.registration, layout: identityLayout('Create an account') }),
  accountSettings: defineRoute('/settings', { area: 'identity', page: page.settings, layout: { pageTitle: 'Account settings', breadcrumb: 'Account settings', skipFirstTimeExperience: true } }),
  accountSettingsAdvanced: later('/settings/advanced', 'identity', 'Advanced account settings'),
  getStartedGeneral: later('/get-started', 'general', 'Get started'),
  invites: later('/invites', 'general', 'Invites'),
  projects: defineRoute('/projects', { area: 'general', page: page.projects, layout: { pageTitle: 'Projects', breadcrumb: 'Projects', skipFirstTimeExperience: true } }),
  createProject: defineRoute('/projects/create', { area: 'general', page: page.createProject, layout: { pageTitle: 'Create project', breadcrumb: 'Create project', skipFirstTimeExperience: true } }),
  // Project activity and developer
  activity: later(`${P}/activity`, 'project', 'Activity'),
  activityEvents: later(`${P}/activity/events`, 'project', 'Events'),
  connect: later(`${P}/connect`, 'project', 'Connect'),
  developers: later(`${P}/developers`, 'project', 'Developers'),
  developerActions: later(`${P}/developers/actions`, 'project', 'Actions'),
  getStarted: defineRoute(`${P}/get-started`, { area: 'project', page: page.getStarted, layout: { pageTitle: 'Get started', breadcrumb: 'Get started' } }),
  // Project settings
  projectSettings: defineRoute(`${P}/settings`, { area: 'project-settings', page: page.projectSettings, layout: { pageTitle: 'Project settings', breadcrumb: 'Settings' } }),
  browserRedirects: later(`${P}/browser-redirects`, 'project-settings', 'Browser redirects'),
  projectBilling: later(`${P}/settings/billing`, 'project-settings', 'Billing'),
  collaborators: later(`${P}/settings/collaborators`, 'project-settings', 'Collaborators'),
  projectAdvanced: later(`${P}/settings/advanced`, 'project-settings', 'Advanced'),
  customDomains: later(`${P}/custom-domains`, 'project-settings', 'Custom domains'),
  limits: later(`${P}/limits`, 'project-settings', 'Limits'),
  sessionSettings: later(`${P}/session-settings`, 'project-settings', 'Session settings'),
  uiSettings: later(`${P}/ui`, 'project-settings', 'User interface'),
  // Authentication
  passwordless: later(`${P}/passwordless`, 'authentication', 'Passwordless'),
  mfa: later(`${P}/mfa`, 'authentication', 'Two-factor authentication'),
  authentication: later(`${P}/authentication`, 'authentication', 'Authentication'),
  authRecovery: later(`${P}/authentication/recovery`, 'authentication', 'Account recovery'),
  authVerification: later(`${P}/authentication/verification`, 'authentication', 'Email verification'),
  authSessions: later(`${P}/authentication/sessions`, 'authentication', 'Sessions'),
  organizations: later(`${P}/authentication/organizations`, 'authentication', 'Organizations'),
  organization: later(`${P}/authentication/organizations/:id`, 'authentication', 'Organization'),
  // Messaging
  smsConfiguration: later(`${P}/sms-configuration`, 'messaging', 'SMS configuration'),
  emailConfiguration: later(`${P}/email-configuration`, 'messaging', 'Email configuration'),
  emailTemplates: later(`${P}/email-templates`, 'messaging', 'Email templates'),
  emailDelivery: later(`${P}/email-delivery`, 'messaging', 'Email delivery'),
  emailMessage: later(`${P}/email-delivery/:id`, 'messaging', 'Message'),
  // Identities and sessions
  identities: later(`${P}/identities`, 'identities', 'Identities'),
  identity: later(`${P}/identities/:identity`, 'identities', 'Identity'),
  sessions: later(`${P}/sessions`, 'identities', 'Sessions'),
  session: later(`${P}/sessions/:session`, 'identities', 'Session'),
  identitySchema: later(`${P}/identity-schema`, 'identities', 'Identity schema'),
  // Permissions
  relationships: later(`${P}/permissions/relationships`, 'permissions', 'Relationships'),
  permissionsConfiguration: later(`${P}/permissions/configuration`, 'permissions', 'Permission rules'),
  // Federation
  socialSignin: later(`${P}/social-signin`, 'federation', 'Social sign-in'),
  socialProvider: later(`${P}/social-signin/:provider`, 'federation', 'Social provider'),
  saml: later(`${P}/saml`, 'federation', 'SAML'),
  samlProvider: later(`${P}/saml/:provider`, 'federation', 'SAML provider'),
  // OAuth
  oauth: later(`${P}/oauth`, 'oauth', 'OAuth2 clients'),
  oauthEndpoints: later(`${P}/oauth/endpoints`, 'oauth', 'OAuth2 endpoints'),
  oauthConfigure: later(`${P}/oauth/configure`, 'oauth', 'OAuth2 configuration'),
  oauthOpenid: later(`${P}/oauth/openid`, 'oauth', 'OpenID Connect'),
  oauthUrls: later(`${P}/oauth/urls`, 'oauth', 'OAuth2 URLs'),
  oauthLifespans: later(`${P}/oauth/lifespans`, 'oauth', 'Token lifespans'),
  oauthStrategies: later(`${P}/oauth/strategies`, 'oauth', 'Token strategies'),
  oauthCookies: later(`${P}/oauth/cookies`, 'oauth', 'OAuth2 cookies'),
  // Account experience
  accountExperience: later(`${P}/account-experience`, 'account-experience', 'Account experience'),
  theming: later(`${P}/account-experience/theming`, 'account-experience', 'Theming'),
  themingCustomize: later(`${P}/account-experience/theming/customize`, 'account-experience', 'Customize theme'),
  // Workspace
  workspaces: defineRoute('/workspaces', { area: 'workspace', page: page.workspaces, layout: { pageTitle: 'Workspaces', breadcrumb: 'Workspaces' } }),
  createWorkspace: defineRoute('/workspaces/create', { area: 'workspace', page: page.createWorkspace, layout: { pageTitle: 'Create workspace', breadcrumb: 'Create workspace', skipFirstTimeExperience: true } }),
  workspace: defineRoute(W, { area: 'workspace', page: page.workspace, layout: { pageTitle: 'Workspace', breadcrumb: 'Overview' } }),
  workspaceProjects: defineRoute(`${W}/projects`, { area: 'workspace', page: page.workspaceProjects, layout: { pageTitle: 'Workspace projects', breadcrumb: 'Projects' } }),
  workspaceSettings: defineRoute(`${W}/settings`, { area: 'workspace', page: page.workspaceSettings, layout: { pageTitle: 'Workspace settings', breadcrumb: 'Settings' } }),
  workspaceMembers: later(`${W}/settings/members`, 'workspace', 'Members'),
  workspaceSubscription: later(`${W}/settings/subscription`, 'workspace', 'Subscription'),
  workspaceApiKeys: later(`${W}/settings/api-keys`, 'workspace', 'API keys'),
  workspaceBilling: later(`${W}/settings/billing`, 'workspace', 'Billing'),
} as const;

export type RouteId = keyof typeof ROUTES;

/** Static routes first, so '/projects/create' wins over '/projects/:project/…'. */
export const ROUTE_LIST: readonly RouteDef[] = (Object.values(ROUTES) as RouteDef[])
  .slice()
  .sort((a, b) => Number(a.pattern.includes(':')) - Number(b.pattern.includes(':')));

export const SHELL_ROUTE_ID = '/_app';
