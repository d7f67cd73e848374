import { defineRoute } from '../lib/route-def';
import { P } from './kit';

/** The pages of one project (`/projects/{project}/…`), by sidebar group. */
export const PROJECT_ROUTES = {
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
  authentication: defineRoute(`${P}/authentication`, {
    area: 'authentication',
    page: 'authentication',
    layout: { pageTitle: 'Sign-in methods', breadcrumb: 'Sign-in methods' },
    nav: { label: 'Sign-in methods', group: 'authentication', icon: 'KeyRound', order: 0, keywords: ['password', 'authentication'], description: 'Chooses how users sign up and sign in: password, code, passkey and more.' },
  }),
  passwordless: defineRoute(`${P}/passwordless`, {
    area: 'authentication',
    page: 'passwordless',
    layout: { pageTitle: 'Passwordless', breadcrumb: 'Passwordless' },
    nav: { label: 'Passwordless', group: 'authentication', icon: 'Zap', order: 10, keywords: ['passkey', 'webauthn', 'code', 'otp'], description: 'Turns on sign-in with one-time codes and passkeys.' },
  }),
  mfa: defineRoute(`${P}/mfa`, {
    area: 'authentication',
    page: 'mfa',
    layout: { pageTitle: 'Two-factor authentication', breadcrumb: 'Two-factor authentication' },
    nav: { label: 'Two-factor authentication', group: 'authentication', icon: 'ShieldCheck', order: 20, keywords: ['mfa', '2fa', 'totp', 'webauthn', 'security key'], description: 'Lets users protect their accounts with a second factor such as an authenticator app or a security key.' },
  }),
  authRecovery: defineRoute(`${P}/authentication/recovery`, {
    area: 'authentication',
    page: 'authRecovery',
    layout: { pageTitle: 'Account recovery', breadcrumb: 'Account recovery' },
    nav: { label: 'Account recovery', group: 'authentication', icon: 'Lock', order: 30, description: 'Decides how users regain access to an account when they forget their password.' },
  }),
  authVerification: defineRoute(`${P}/authentication/verification`, {
    area: 'authentication',
    page: 'authVerification',
    layout: { pageTitle: 'Email verification', breadcrumb: 'Email verification' },
    nav: { label: 'Email verification', group: 'authentication', icon: 'BadgeCheck', order: 40, description: 'Decides whether and how users confirm their email address or phone number.' },
  }),
  authSessions: defineRoute(`${P}/authentication/sessions`, {
    area: 'authentication',
    page: 'authSessions',
    layout: { pageTitle: 'Session lifespan', breadcrumb: 'Session lifespan' },
    nav: { label: 'Session lifespan', group: 'authentication', icon: 'Timer', order: 50, keywords: ['sessions'], description: 'Sets how long a sign-in lasts and when users must sign in again.' },
  }),
  organizations: defineRoute(`${P}/authentication/organizations`, {
    area: 'authentication',
    page: 'organizations',
    layout: { pageTitle: 'Organizations', breadcrumb: 'Organizations' },
    nav: { label: 'Organizations', group: 'authentication', icon: 'Building2', order: 60, keywords: ['b2b', 'sso'], description: 'Groups users by company domain and signs them in with their own identity provider.' },
  }),
  organization: defineRoute(`${P}/authentication/organizations/:id`, {
    area: 'authentication',
    page: 'organization',
    layout: { pageTitle: 'Organization', breadcrumb: 'Organization' },
    nav: { label: 'Organization', parent: 'organizations', description: "Shows one organization's domains and single sign-on connections." },
  }),
  // Social and SAML
  socialSignin: defineRoute(`${P}/social-signin`, {
    area: 'federation',
    page: 'socialSignin',
    layout: { pageTitle: 'Social sign-in', breadcrumb: 'Social sign-in' },
    nav: { label: 'Social sign-in', group: 'federation', icon: 'Share2', order: 0, keywords: ['oidc', 'google', 'github'], description: 'Lets users sign in with Google, GitHub, Apple and other providers.' },
  }),
  socialProvider: defineRoute(`${P}/social-signin/:provider`, {
    area: 'federation',
    page: 'socialProvider',
    layout: { pageTitle: 'Social provider', breadcrumb: 'Social provider' },
    nav: { label: 'Social provider', parent: 'socialSignin', description: "Configures one social sign-in provider's client and claims mapping." },
  }),
  saml: defineRoute(`${P}/saml`, {
    area: 'federation',
    page: 'saml',
    layout: { pageTitle: 'SAML', breadcrumb: 'SAML' },
    nav: { label: 'SAML', group: 'federation', icon: 'Network', order: 10, keywords: ['sso', 'okta', 'entra', 'adfs'], description: 'Connects enterprise identity providers over SAML 2.0.' },
  }),
  samlProvider: defineRoute(`${P}/saml/:provider`, {
    area: 'federation',
    page: 'samlProvider',
    layout: { pageTitle: 'SAML provider', breadcrumb: 'SAML provider' },
    nav: { label: 'SAML provider', parent: 'saml', description: "Configures one SAML identity provider's metadata and attribute mapping." },
  }),
  // OAuth2
  oauth: defineRoute(`${P}/oauth`, {
    area: 'oauth',
    page: 'oauth2Clients',
    layout: { pageTitle: 'OAuth2 clients', breadcrumb: 'OAuth2 clients', wide: true },
    nav: { label: 'OAuth2 clients', group: 'oauth', icon: 'AppWindow', order: 0, keywords: ['oauth2', 'applications'], description: 'Registers the applications that obtain tokens from this project.' },
  }),
  oauthEndpoints: defineRoute(`${P}/oauth/endpoints`, {
    area: 'oauth',
    page: 'oauth2Endpoints',
    layout: { pageTitle: 'Endpoints', breadcrumb: 'Endpoints' },
    nav: { label: 'Endpoints', group: 'oauth', icon: 'Link', order: 10, keywords: ['oauth2', 'issuer', 'discovery'], description: "Lists this project's OAuth2 and OpenID Connect endpoint URLs." },
  }),
  oauthConfigure: defineRoute(`${P}/oauth/configure`, {
    area: 'oauth',
    page: 'oauth2Configure',
    layout: { pageTitle: 'Configuration', breadcrumb: 'Configuration' },
    nav: { label: 'Configuration', group: 'oauth', icon: 'SlidersHorizontal', order: 20, keywords: ['oauth2'], description: 'Sets the general behaviour of the OAuth2 server of this project.' },
  }),
  oauthOpenid: defineRoute(`${P}/oauth/openid`, {
    area: 'oauth',
    page: 'oauth2OpenId',
    layout: { pageTitle: 'OpenID Connect', breadcrumb: 'OpenID Connect' },
    nav: { label: 'OpenID Connect', group: 'oauth', icon: 'UserCheck', order: 30, keywords: ['oidc', 'oauth2'], description: 'Configures ID tokens, userinfo and the claims they carry.' },
  }),
  oauthUrls: defineRoute(`${P}/oauth/urls`, {
    area: 'oauth',
    page: 'oauth2Urls',
    layout: { pageTitle: 'URLs', breadcrumb: 'URLs' },
    nav: { label: 'URLs', group: 'oauth', icon: 'Globe', order: 40, keywords: ['oauth2', 'login', 'consent'], description: 'Sets where the OAuth2 server sends users to sign in, consent and sign out.' },
  }),
  oauthLifespans: defineRoute(`${P}/oauth/lifespans`, {
    area: 'oauth',
    page: 'oauth2Lifespans',
    layout: { pageTitle: 'Token lifespans', breadcrumb: 'Token lifespans' },
    nav: { label: 'Token lifespans', group: 'oauth', icon: 'Gauge', order: 50, keywords: ['oauth2'], description: 'Sets how long access, refresh and ID tokens stay valid.' },
  }),
  oauthStrategies: defineRoute(`${P}/oauth/strategies`, {
    area: 'oauth',
    page: 'oauth2Strategies',
    layout: { pageTitle: 'Token strategies', breadcrumb: 'Token strategies' },
    nav: { label: 'Token strategies', group: 'oauth', icon: 'Braces', order: 60, keywords: ['oauth2', 'jwt'], description: 'Chooses between opaque and JWT access tokens.' },
  }),
  oauthCookies: defineRoute(`${P}/oauth/cookies`, {
    area: 'oauth',
    page: 'oauth2Cookies',
    layout: { pageTitle: 'Cookies', breadcrumb: 'Cookies' },
    nav: { label: 'Cookies', group: 'oauth', icon: 'Cookie', order: 70, keywords: ['oauth2'], description: 'Sets the SameSite mode of the cookies the OAuth2 server uses.' },
  }),
  // Permissions
  relationships: defineRoute(`${P}/permissions/relationships`, {
    area: 'permissions',
    page: 'relationships',
    layout: { pageTitle: 'Relationships', breadcrumb: 'Relationships', wide: true },
    nav: { label: 'Relationships', group: 'permissions', icon: 'Waypoints', order: 0, keywords: ['permissions', 'check', 'debugger'], description: 'Browses and edits the relationships that permission checks are answered from, and explains a check.' },
  }),
  permissionsConfiguration: defineRoute(`${P}/permissions/configuration`, {
    area: 'permissions',
    page: 'permissionRules',
    layout: { pageTitle: 'Permission rules', breadcrumb: 'Permission rules', wide: true },
    nav: { label: 'Permission rules', group: 'permissions', icon: 'ListTree', order: 10, keywords: ['permissions', 'opl'], description: 'Defines namespaces and the rules that turn relationships into permissions.' },
  }),
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
  accountExperience: defineRoute(`${P}/account-experience`, {
    area: 'account-experience',
    page: 'accountExperience',
    layout: { pageTitle: 'Account experience', breadcrumb: 'Account experience', wide: true },
    nav: { label: 'Account experience', group: 'account-experience', icon: 'AppWindow', order: 0, description: 'Previews and links the hosted sign-in, sign-up and settings pages of this project.' },
  }),
  theming: defineRoute(`${P}/account-experience/theming`, {
    area: 'account-experience',
    page: 'theming',
    layout: { pageTitle: 'Theming', breadcrumb: 'Theming' },
    nav: { label: 'Theming', group: 'account-experience', icon: 'Palette', order: 10, keywords: ['branding'], description: 'Chooses the logo, colours and fonts of the hosted pages.' },
  }),
  themingCustomize: defineRoute(`${P}/account-experience/theming/customize`, {
    area: 'account-experience',
    page: 'themingCustomize',
    layout: { pageTitle: 'Customize theme', breadcrumb: 'Customize theme', wide: true },
    nav: { label: 'Customize theme', parent: 'theming', description: 'Edits a theme in detail and previews it live.' },
  }),
  // Activity and developers
  activity: defineRoute(`${P}/activity`, {
    area: 'project',
    page: 'activity',
    layout: { pageTitle: 'Activity', breadcrumb: 'Activity', wide: true },
    nav: { label: 'Activity', group: 'activity', icon: 'Activity', order: 0, keywords: ['metrics', 'usage', 'charts'], description: 'Charts sign-ups, sign-ins and API usage of this project over time.' },
  }),
  activityEvents: defineRoute(`${P}/activity/events`, {
    area: 'project',
    page: 'activityEvents',
    layout: { pageTitle: 'Events', breadcrumb: 'Events', wide: true },
    nav: { label: 'Events', group: 'activity', icon: 'ClipboardList', order: 10, keywords: ['event log', 'audit'], description: 'Lists every event of this project with its attributes.' },
  }),
  connect: defineRoute(`${P}/connect`, {
    area: 'project',
    page: 'connect',
    layout: { pageTitle: 'Connect', breadcrumb: 'Connect' },
    nav: { label: 'Connect', group: 'activity', icon: 'Plug', order: 20, keywords: ['sdk', 'quickstart', 'base url', 'react', 'next.js', 'go'], description: 'Shows how to connect your application to this project, step by step.' },
  }),
  developers: defineRoute(`${P}/developers`, {
    area: 'project',
    page: 'developers',
    layout: { pageTitle: 'Developers', breadcrumb: 'Developers', wide: true },
    nav: { label: 'Developers', group: 'activity', icon: 'Code', order: 30, keywords: ['api keys', 'sdk', 'event streams', 'webhooks'], description: 'Gathers the API keys, endpoints and event streams developers need for this project.' },
  }),
  developerActions: defineRoute(`${P}/developers/actions`, {
    area: 'project',
    page: 'developerActions',
    layout: { pageTitle: 'Actions', breadcrumb: 'Actions', wide: true },
    nav: { label: 'Actions', group: 'activity', icon: 'Wrench', order: 40, keywords: ['webhooks', 'hooks'], description: 'Calls your webhooks before or after sign-up, sign-in and other flows.' },
  }),
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
  customDomains: defineRoute(`${P}/custom-domains`, {
    area: 'project-settings',
    page: 'customDomains',
    layout: { pageTitle: 'Custom domains', breadcrumb: 'Custom domains' },
    nav: { label: 'Custom domains', group: 'project-settings', icon: 'Globe', order: 30, keywords: ['cname'], description: 'Serves the hosted pages and APIs of this project from your own domain.' },
  }),
  browserRedirects: defineRoute(`${P}/browser-redirects`, {
    area: 'project-settings',
    page: 'browserRedirects',
    layout: { pageTitle: 'Browser redirects', breadcrumb: 'Browser redirects' },
    nav: { label: 'Browser redirects', group: 'project-settings', icon: 'ArrowRightLeft', order: 40, description: 'Sets where users land after signing in, signing up or signing out.' },
  }),
  sessionSettings: defineRoute(`${P}/session-settings`, {
    area: 'project-settings',
    page: 'sessionSettings',
    layout: { pageTitle: 'Session settings', breadcrumb: 'Session settings' },
    nav: { label: 'Session settings', group: 'project-settings', icon: 'Timer', order: 50, keywords: ['cookies'], description: 'Sets the session cookie and how sessions are checked.' },
  }),
  limits: defineRoute(`${P}/limits`, {
    area: 'project-settings',
    page: 'limits',
    layout: { pageTitle: 'Limits', breadcrumb: 'Limits' },
    nav: { label: 'Limits', group: 'project-settings', icon: 'Gauge', order: 60, keywords: ['quota', 'rate limits'], description: 'Shows the quotas and rate limits of this project and how close you are to them.' },
  }),
  uiSettings: defineRoute(`${P}/ui`, {
    area: 'project-settings',
    page: 'uiSettings',
    layout: { pageTitle: 'User interface', breadcrumb: 'User interface' },
    nav: { label: 'User interface', group: 'project-settings', icon: 'Paintbrush', order: 70, keywords: ['ui urls'], description: 'Points the flows at your own sign-in, registration and settings pages.' },
  }),
  projectHistory: defineRoute(`${P}/settings/history`, {
    area: 'project-settings',
    page: 'projectHistory',
    layout: { pageTitle: 'Configuration history', breadcrumb: 'History' },
    nav: { label: 'History', group: 'project-settings', icon: 'History', order: 75, keywords: ['revisions', 'rollback', 'undo', 'restore', 'audit'], description: "Lists every change to this project's configuration and restores an earlier version." },
  }),
  projectAuditLog: defineRoute(`${P}/settings/audit-log`, {
    area: 'project-settings',
    page: 'projectAuditLog',
    layout: { pageTitle: 'Audit log', breadcrumb: 'Audit log', wide: true },
    nav: { label: 'Audit log', group: 'project-settings', icon: 'ClipboardList', order: 77, keywords: ['audit', 'who changed', 'security log'], description: 'Lists who changed what in this project, when, and whether it worked.' },
  }),
  projectAdvanced: defineRoute(`${P}/settings/advanced`, {
    area: 'project-settings',
    page: 'projectAdvanced',
    layout: { pageTitle: 'Advanced', breadcrumb: 'Advanced' },
    nav: { label: 'Advanced', group: 'project-settings', icon: 'Wrench', order: 80, keywords: ['config', 'api keys', 'tokens'], description: "Creates and revokes the project's API keys." },
  }),
} as const;
