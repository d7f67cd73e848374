import { defineRoute, type LayoutOptions, type NavMeta, type RouteArea, type RouteDef } from './lib/route-def';


const identityLayout = (pageTitle: string): LayoutOptions => ({
  minimalNavigation: true,
  skipFirstTimeExperience: true,
  navbarMenu: false,
  pageTitle,
});

/**
 * A route whose page is not built yet: the sidebar marks it "Soon" and its page says in one
 * sentence what the area will do.
 */
function soon<P extends string>(pattern: P, area: RouteArea, nav: NavMeta & { description: string }, requiresAuth = true): RouteDef<P> {
  return defineRoute(pattern, {
    area,
    requiresAuth,
    available: false,
    page: 'soon',
    layout: { pageTitle: nav.label, breadcrumb: nav.label },
    nav,
  });
}

const P = '/projects/:project' as const;
const W = '/workspaces/:workspace' as const;

/**
 * Every route of spec §2's table: one registry feeding the router, the sidebar, breadcrumbs, the
 * command palette and document titles.
 */
const REGISTRY = {
  // General
  home: defineRoute('/', { area: 'general', page: 'home', layout: { pageTitle: 'Console', skipFirstTimeExperience: true } }),
  notFound: defineRoute('/404', { area: 'general', requiresAuth: false, page: 'notFound', layout: { pageTitle: 'Page not found', navbarMenu: false } }),
  serverError: defineRoute('/500', { area: 'general', requiresAuth: false, page: 'serverError', layout: { pageTitle: 'Server error', navbarMenu: false } }),
  error: defineRoute('/error', { area: 'general', requiresAuth: false, page: 'error', layout: { pageTitle: 'Error', navbarMenu: false } }),
  support: soon('/support', 'general', { label: 'Support', group: 'console', icon: 'MessageSquare', order: 40, description: 'Open and follow support requests with the team behind the Console.' }),
  login: defineRoute('/login', { area: 'identity', requiresAuth: false, page: 'login', layout: identityLayout('Sign in') }),
  oauth2Consent: soon('/oauth2/consent', 'identity', { label: 'Consent', description: 'Asks you to let an application use your Console account.' }, false),
  recovery: defineRoute('/recovery', { area: 'identity', requiresAuth: false, page: 'recovery', layout: identityLayout('Recover your account') }),
  verification: defineRoute('/verification', { area: 'identity', requiresAuth: false, page: 'verification', layout: { ...identityLayout('Verify your email'), frameWhenSignedIn: true } }),
  registration: defineRoute('/registration', { area: 'identity', requiresAuth: false, page: 'registration', layout: identityLayout('Create an account') }),
  accountSettings: defineRoute('/settings', {
    area: 'identity',
    page: 'settings',
    layout: { pageTitle: 'Account settings', breadcrumb: 'Account settings', skipFirstTimeExperience: true },
    nav: { label: 'Account settings', keywords: ['profile', 'password'] },
  }),
  accountSettingsAdvanced: soon('/settings/advanced', 'identity', { label: 'Advanced account settings', parent: 'accountSettings', description: 'Manage second factors, passkeys and the sessions of your Console account.' }),
  getStartedGeneral: soon('/get-started', 'general', { label: 'Guided tour', group: 'console', icon: 'Rocket', order: 30, description: 'A guided tour from your first project to your first signed-in user.' }),
  invites: defineRoute('/invites', {
    area: 'general',
    requiresAuth: false,
    page: 'invites',
    layout: { pageTitle: 'Invites', breadcrumb: 'Invites', frameWhenSignedIn: true, minimalNavigation: true },
    nav: { label: 'Invites', group: 'console', icon: 'UserPlus', order: 20, description: 'Accept or decline invitations to join other workspaces and projects.' },
  }),
  projects: defineRoute('/projects', {
    area: 'general',
    page: 'projects',
    layout: { pageTitle: 'Projects', breadcrumb: 'Projects', skipFirstTimeExperience: true, wide: true },
    nav: { label: 'All projects', group: 'console', icon: 'Folders', order: 0 },
  }),
  createProject: defineRoute('/projects/create', {
    area: 'general',
    page: 'createProject',
    layout: { pageTitle: 'Create project', breadcrumb: 'Create project', skipFirstTimeExperience: true },
    nav: { label: 'Create project', parent: 'projects', keywords: ['new project'] },
  }),
  // Overview
  getStarted: defineRoute(`${P}/get-started`, {
    area: 'project',
    page: 'getStarted',
    layout: { pageTitle: 'Get started', breadcrumb: 'Get started' },
    nav: { label: 'Get started', group: 'overview', icon: 'LayoutDashboard', order: 0, keywords: ['overview', 'home'] },
  }),
  // Identities and sessions
  identities: defineRoute(`${P}/identities`, {
    area: 'identities',
    page: 'identities',
    layout: { pageTitle: 'Identities', breadcrumb: 'Identities', wide: true },
    nav: { label: 'Identities', group: 'identities', icon: 'Users', order: 0, keywords: ['users', 'import'], description: 'Browse, create, edit and delete the user accounts of this project.' },
  }),
  identity: defineRoute(`${P}/identities/:identity`, {
    area: 'identities',
    page: 'identity',
    layout: { pageTitle: 'Identity', breadcrumb: 'Identity' },
    nav: { label: 'Identity', parent: 'identities', description: "Shows one user's traits, credentials, sessions and recovery options." },
  }),
  sessions: defineRoute(`${P}/sessions`, {
    area: 'identities',
    page: 'sessions',
    layout: { pageTitle: 'Sessions', breadcrumb: 'Sessions', wide: true },
    nav: { label: 'Sessions', group: 'identities', icon: 'Timer', order: 10, description: 'Lists the active sign-in sessions of your users and lets you revoke them.' },
  }),
  session: defineRoute(`${P}/sessions/:session`, {
    area: 'identities',
    page: 'session',
    layout: { pageTitle: 'Session', breadcrumb: 'Session' },
    nav: { label: 'Session', parent: 'sessions', description: 'Shows one session: its user, devices, authentication methods and expiry.' },
  }),
  identitySchema: defineRoute(`${P}/identity-schema`, {
    area: 'identities',
    page: 'identitySchema',
    layout: { pageTitle: 'Identity schema', breadcrumb: 'Identity schema' },
    nav: { label: 'Identity schema', group: 'identities', icon: 'FileJson', order: 20, keywords: ['traits', 'json schema'], description: 'Defines the traits every identity of this project carries, as a JSON schema.' },
  }),
  // Authentication
  authentication: soon(`${P}/authentication`, 'authentication', { label: 'Sign-in methods', group: 'authentication', icon: 'KeyRound', order: 0, keywords: ['password', 'authentication'], description: 'Chooses how users sign up and sign in: password, code, passkey and more.' }),
  passwordless: soon(`${P}/passwordless`, 'authentication', { label: 'Passwordless', group: 'authentication', icon: 'Zap', order: 10, description: 'Turns on sign-in with one-time codes, magic links and passkeys.' }),
  mfa: soon(`${P}/mfa`, 'authentication', { label: 'Two-factor authentication', group: 'authentication', icon: 'ShieldCheck', order: 20, keywords: ['mfa', '2fa', 'totp'], description: 'Lets users protect their accounts with a second factor such as an authenticator app.' }),
  authRecovery: soon(`${P}/authentication/recovery`, 'authentication', { label: 'Account recovery', group: 'authentication', icon: 'Lock', order: 30, description: 'Decides how users regain access to an account when they forget their password.' }),
  authVerification: soon(`${P}/authentication/verification`, 'authentication', { label: 'Email verification', group: 'authentication', icon: 'BadgeCheck', order: 40, description: 'Decides whether and how users confirm their email address or phone number.' }),
  authSessions: soon(`${P}/authentication/sessions`, 'authentication', { label: 'Session lifespan', group: 'authentication', icon: 'Timer', order: 50, keywords: ['sessions'], description: 'Sets how long a sign-in lasts and when users must sign in again.' }),
  organizations: soon(`${P}/authentication/organizations`, 'authentication', { label: 'Organizations', group: 'authentication', icon: 'Building2', order: 60, keywords: ['b2b', 'sso'], description: 'Groups users by company domain and signs them in with their own identity provider.' }),
  organization: soon(`${P}/authentication/organizations/:id`, 'authentication', { label: 'Organization', parent: 'organizations', description: "Shows one organization's domains and single sign-on connections." }),
  // Social and SAML
  socialSignin: soon(`${P}/social-signin`, 'federation', { label: 'Social sign-in', group: 'federation', icon: 'Share2', order: 0, keywords: ['oidc', 'google', 'github'], description: 'Lets users sign in with Google, GitHub, Apple and other providers.' }),
  socialProvider: soon(`${P}/social-signin/:provider`, 'federation', { label: 'Social provider', parent: 'socialSignin', description: "Configures one social sign-in provider's client and claims mapping." }),
  saml: soon(`${P}/saml`, 'federation', { label: 'SAML', group: 'federation', icon: 'Network', order: 10, description: 'Connects enterprise identity providers over SAML 2.0.' }),
  samlProvider: soon(`${P}/saml/:provider`, 'federation', { label: 'SAML provider', parent: 'saml', description: "Configures one SAML identity provider's metadata and attribute mapping." }),
  // OAuth2
  oauth: soon(`${P}/oauth`, 'oauth', { label: 'OAuth2 clients', group: 'oauth', icon: 'AppWindow', order: 0, description: 'Registers the applications that obtain tokens from this project.' }),
  oauthEndpoints: soon(`${P}/oauth/endpoints`, 'oauth', { label: 'Endpoints', group: 'oauth', icon: 'Link', order: 10, keywords: ['oauth2'], description: "Lists this project's OAuth2 and OpenID Connect endpoint URLs." }),
  oauthConfigure: soon(`${P}/oauth/configure`, 'oauth', { label: 'Configuration', group: 'oauth', icon: 'SlidersHorizontal', order: 20, keywords: ['oauth2'], description: 'Sets the general behaviour of the OAuth2 server of this project.' }),
  oauthOpenid: soon(`${P}/oauth/openid`, 'oauth', { label: 'OpenID Connect', group: 'oauth', icon: 'UserCheck', order: 30, keywords: ['oidc', 'oauth2'], description: 'Configures ID tokens, userinfo and the claims they carry.' }),
  oauthUrls: soon(`${P}/oauth/urls`, 'oauth', { label: 'URLs', group: 'oauth', icon: 'Globe', order: 40, keywords: ['oauth2', 'login', 'consent'], description: 'Sets where the OAuth2 server sends users to sign in, consent and sign out.' }),
  oauthLifespans: soon(`${P}/oauth/lifespans`, 'oauth', { label: 'Token lifespans', group: 'oauth', icon: 'Gauge', order: 50, keywords: ['oauth2'], description: 'Sets how long access, refresh and ID tokens stay valid.' }),
  oauthStrategies: soon(`${P}/oauth/strategies`, 'oauth', { label: 'Token strategies', group: 'oauth', icon: 'Braces', order: 60, keywords: ['oauth2', 'jwt'], description: 'Chooses between opaque and JWT access tokens.' }),
  oauthCookies: soon(`${P}/oauth/cookies`, 'oauth', { label: 'Cookies', group: 'oauth', icon: 'Cookie', order: 70, keywords: ['oauth2'], description: 'Sets the names and attributes of the cookies the OAuth2 server uses.' }),
  // Permissions
  relationships: soon(`${P}/permissions/relationships`, 'permissions', { label: 'Relationships', group: 'permissions', icon: 'Waypoints', order: 0, keywords: ['permissions'], description: 'Browses and edits the relationships that permission checks are answered from.' }),
  permissionsConfiguration: soon(`${P}/permissions/configuration`, 'permissions', { label: 'Permission rules', group: 'permissions', icon: 'ListTree', order: 10, keywords: ['permissions', 'opl'], description: 'Defines namespaces and the rules that turn relationships into permissions.' }),
  // Messaging
  emailConfiguration: defineRoute(`${P}/email-configuration`, {
    area: 'messaging',
    page: 'emailConfiguration',
    layout: { pageTitle: 'Email configuration', breadcrumb: 'Email configuration' },
    nav: { label: 'Email configuration', group: 'messaging', icon: 'Mail', order: 0, keywords: ['smtp'], description: 'Sets the SMTP server and sender address of the emails this project sends.' },
  }),
  smsConfiguration: defineRoute(`${P}/sms-configuration`, {
    area: 'messaging',
    page: 'smsConfiguration',
    layout: { pageTitle: 'SMS configuration', breadcrumb: 'SMS configuration' },
    nav: { label: 'SMS configuration', group: 'messaging', icon: 'Smartphone', order: 10, description: 'Sets the provider that delivers text messages with codes to your users.' },
  }),
  emailTemplates: defineRoute(`${P}/email-templates`, {
    area: 'messaging',
    page: 'emailTemplates',
    layout: { pageTitle: 'Email templates', breadcrumb: 'Templates' },
    nav: { label: 'Templates', group: 'messaging', icon: 'FileText', order: 20, keywords: ['email'], description: 'Edits the text of the recovery, verification and code messages.' },
  }),
  emailDelivery: defineRoute(`${P}/email-delivery`, {
    area: 'messaging',
    page: 'emailDelivery',
    layout: { pageTitle: 'Delivery', breadcrumb: 'Delivery', wide: true },
    nav: { label: 'Delivery', group: 'messaging', icon: 'Send', order: 30, keywords: ['email', 'courier'], description: 'Lists the messages sent to your users and whether they were delivered.' },
  }),
  emailMessage: defineRoute(`${P}/email-delivery/:id`, {
    area: 'messaging',
    page: 'emailMessage',
    layout: { pageTitle: 'Message', breadcrumb: 'Message' },
    nav: { label: 'Message', parent: 'emailDelivery', description: "Shows one message's recipient, content and delivery attempts." },
  }),
  // Account experience
  accountExperience: soon(`${P}/account-experience`, 'account-experience', { label: 'Account experience', group: 'account-experience', icon: 'AppWindow', order: 0, description: 'Previews and links the hosted sign-in, sign-up and settings pages of this project.' }),
  theming: soon(`${P}/account-experience/theming`, 'account-experience', { label: 'Theming', group: 'account-experience', icon: 'Palette', order: 10, keywords: ['branding'], description: 'Chooses the logo, colours and fonts of the hosted pages.' }),
  themingCustomize: soon(`${P}/account-experience/theming/customize`, 'account-experience', { label: 'Customize theme', parent: 'theming', description: 'Edits a theme in detail and previews it live.' }),
  // Activity and developers
  activity: soon(`${P}/activity`, 'project', { label: 'Activity', group: 'activity', icon: 'Activity', order: 0, keywords: ['metrics', 'usage'], description: 'Charts sign-ups, sign-ins and API usage of this project over time.' }),
  activityEvents: soon(`${P}/activity/events`, 'project', { label: 'Events', group: 'activity', icon: 'ClipboardList', order: 10, keywords: ['event streams'], description: 'Streams the events of this project to your own systems.' }),
  connect: soon(`${P}/connect`, 'project', { label: 'Connect', group: 'activity', icon: 'Plug', order: 20, keywords: ['sdk', 'quickstart'], description: 'Shows how to connect your application to this project, step by step.' }),
  developers: soon(`${P}/developers`, 'project', { label: 'Developers', group: 'activity', icon: 'Code', order: 30, keywords: ['api keys', 'sdk'], description: 'Gathers the API keys, SDKs and endpoints developers need for this project.' }),
  developerActions: soon(`${P}/developers/actions`, 'project', { label: 'Actions', group: 'activity', icon: 'Wrench', order: 40, keywords: ['webhooks', 'hooks'], description: 'Calls your webhooks before or after sign-up, sign-in and other flows.' }),
  // Project settings
  projectSettings: defineRoute(`${P}/settings`, {
    area: 'project-settings',
    page: 'projectSettings',
    layout: { pageTitle: 'Project settings', breadcrumb: 'Settings' },
    nav: { label: 'General', group: 'project-settings', icon: 'Settings', order: 0, keywords: ['project settings', 'rename', 'delete'] },
  }),
  collaborators: defineRoute(`${P}/settings/collaborators`, {
    area: 'project-settings',
    page: 'collaborators',
    layout: { pageTitle: 'Collaborators', breadcrumb: 'Collaborators' },
    nav: { label: 'Collaborators', group: 'project-settings', icon: 'UsersRound', order: 10, keywords: ['members', 'invite'], description: 'Invites people to work on this project and manages their access.' },
  }),
  projectBilling: defineRoute(`${P}/settings/billing`, {
    area: 'project-settings',
    page: 'projectBilling',
    layout: { pageTitle: 'Billing', breadcrumb: 'Billing' },
    nav: { label: 'Billing', group: 'project-settings', icon: 'CreditCard', order: 20, keywords: ['plan', 'subscription', 'invoices', 'usage'], description: "Shows this project's plan and usage, and lets you change the plan." },
  }),
  customDomains: soon(`${P}/custom-domains`, 'project-settings', { label: 'Custom domains', group: 'project-settings', icon: 'Globe', order: 30, keywords: ['cname'], description: 'Serves the hosted pages and APIs of this project from your own domain.' }),
  browserRedirects: soon(`${P}/browser-redirects`, 'project-settings', { label: 'Browser redirects', group: 'project-settings', icon: 'ArrowRightLeft', order: 40, description: 'Sets where users land after signing in, signing up or signing out.' }),
  sessionSettings: soon(`${P}/session-settings`, 'project-settings', { label: 'Session settings', group: 'project-settings', icon: 'Timer', order: 50, keywords: ['cookies'], description: 'Sets the session cookie and how sessions are checked.' }),
  limits: soon(`${P}/limits`, 'project-settings', { label: 'Limits', group: 'project-settings', icon: 'Gauge', order: 60, keywords: ['quota', 'rate limits'], description: 'Shows the quotas and rate limits of this project and how close you are to them.' }),
  uiSettings: soon(`${P}/ui`, 'project-settings', { label: 'User interface', group: 'project-settings', icon: 'Paintbrush', order: 70, keywords: ['ui urls'], description: 'Points the flows at your own sign-in, registration and settings pages.' }),
  projectAdvanced: defineRoute(`${P}/settings/advanced`, {
    area: 'project-settings',
    page: 'projectAdvanced',
    layout: { pageTitle: 'Advanced', breadcrumb: 'Advanced' },
    nav: { label: 'Advanced', group: 'project-settings', icon: 'Wrench', order: 80, keywords: ['config', 'api keys', 'tokens'], description: "Creates and revokes the project's API keys." },
  }),
  // Workspace
  workspaces: defineRoute('/workspaces', {
    area: 'workspace',
    page: 'workspaces',
    layout: { pageTitle: 'Workspaces', breadcrumb: 'Workspaces', wide: true },
    nav: { label: 'All workspaces', group: 'console', icon: 'Briefcase', order: 10 },
  }),
  createWorkspace: defineRoute('/workspaces/create', {
    area: 'workspace',
    page: 'createWorkspace',
    layout: { pageTitle: 'Create workspace', breadcrumb: 'Create workspace', skipFirstTimeExperience: true },
    nav: { label: 'Create workspace', parent: 'workspaces', keywords: ['new workspace'] },
  }),
  workspace: defineRoute(W, {
    area: 'workspace',
    page: 'workspace',
    layout: { pageTitle: 'Workspace', breadcrumb: 'Overview' },
    nav: { label: 'Overview', group: 'workspace', icon: 'LayoutDashboard', order: 0, keywords: ['workspace'] },
  }),
  workspaceProjects: defineRoute(`${W}/projects`, {
    area: 'workspace',
    page: 'workspaceProjects',
    layout: { pageTitle: 'Workspace projects', breadcrumb: 'Projects' },
    nav: { label: 'Projects', group: 'workspace', icon: 'Folders', order: 10, keywords: ['workspace projects'] },
  }),
  workspaceMembers: defineRoute(`${W}/settings/members`, {
    area: 'workspace',
    page: 'workspaceMembers',
    layout: { pageTitle: 'Members', breadcrumb: 'Members' },
    nav: { label: 'Members', group: 'workspace', icon: 'Users', order: 20, keywords: ['invite', 'team'], description: 'Invites people to this workspace and sets who is an owner or a developer.' },
  }),
  workspaceApiKeys: defineRoute(`${W}/settings/api-keys`, {
    area: 'workspace',
    page: 'workspaceApiKeys',
    layout: { pageTitle: 'API keys', breadcrumb: 'API keys' },
    nav: { label: 'API keys', group: 'workspace', icon: 'KeyRound', order: 30, keywords: ['workspace keys'], description: 'Creates and revokes keys that automate this workspace through the API.' },
  }),
  workspaceSubscription: defineRoute(`${W}/settings/subscription`, {
    area: 'workspace',
    page: 'workspaceSubscription',
    layout: { pageTitle: 'Subscription', breadcrumb: 'Subscription' },
    nav: { label: 'Subscription', group: 'workspace', icon: 'Inbox', order: 40, keywords: ['plan', 'upgrade', 'pricing'], description: "Shows the workspace's plan and lets you change or cancel it." },
  }),
  workspaceBilling: defineRoute(`${W}/settings/billing`, {
    area: 'workspace',
    page: 'workspaceBilling',
    layout: { pageTitle: 'Billing', breadcrumb: 'Billing' },
    nav: { label: 'Billing', group: 'workspace', icon: 'CreditCard', order: 50, keywords: ['invoices', 'payment', 'usage'], description: 'Lists invoices and sets the payment method and billing address.' },
  }),
  workspaceSettings: defineRoute(`${W}/settings`, {
    area: 'workspace',
    page: 'workspaceSettings',
    layout: { pageTitle: 'Workspace settings', breadcrumb: 'Settings' },
    nav: { label: 'Settings', group: 'workspace', icon: 'Settings', order: 60, keywords: ['workspace settings', 'rename'] },
  }),
} as const;

for (const [id, route] of Object.entries(REGISTRY)) (route as RouteDef).id = id;

export const ROUTES = REGISTRY;

export type RouteId = keyof typeof ROUTES;

/** Static routes first, so '/projects/create' wins over '/projects/:project/…'. */
export const ROUTE_LIST: readonly RouteDef[] = (Object.values(ROUTES) as RouteDef[])
  .slice()
  .sort((a, b) => Number(a.pattern.includes(':')) - Number(b.pattern.includes(':')));

export const SHELL_ROUTE_ID = '/_app';
