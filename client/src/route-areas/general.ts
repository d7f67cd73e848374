import { defineRoute } from '../lib/route-def';
import { identityLayout } from './kit';

/** The console's own pages: sign-in and account, invites, the project list and status pages. */
export const GENERAL_ROUTES = {
  // General
  home: defineRoute('/', { area: 'general', page: 'home', layout: { pageTitle: 'Console', skipFirstTimeExperience: true } }),
  notFound: defineRoute('/404', { area: 'general', requiresAuth: false, page: 'notFound', layout: { pageTitle: 'Page not found', navbarMenu: false } }),
  serverError: defineRoute('/500', { area: 'general', requiresAuth: false, page: 'serverError', layout: { pageTitle: 'Server error', navbarMenu: false } }),
  error: defineRoute('/error', { area: 'general', requiresAuth: false, page: 'error', layout: { pageTitle: 'Error', navbarMenu: false } }),
  support: defineRoute('/support', {
    area: 'general',
    page: 'support',
    layout: { pageTitle: 'Support', breadcrumb: 'Support' },
    nav: { label: 'Support', group: 'console', icon: 'MessageSquare', order: 40, keywords: ['help', 'version', 'diagnostics', 'status'], description: 'Help, the service status, the Console version and a diagnostic report to share with support.' },
  }),
  login: defineRoute('/login', { area: 'identity', requiresAuth: false, page: 'login', layout: identityLayout('Sign in') }),
  oauth2Consent: defineRoute('/oauth2/consent', { area: 'identity', requiresAuth: false, page: 'oauth2Consent', layout: identityLayout('Authorize an application') }),
  recovery: defineRoute('/recovery', { area: 'identity', requiresAuth: false, page: 'recovery', layout: identityLayout('Recover your account') }),
  verification: defineRoute('/verification', { area: 'identity', requiresAuth: false, page: 'verification', layout: { ...identityLayout('Verify your email'), frameWhenSignedIn: true } }),
  registration: defineRoute('/registration', { area: 'identity', requiresAuth: false, page: 'registration', layout: identityLayout('Create an account') }),
  accountSettings: defineRoute('/settings', {
    area: 'identity',
    page: 'settings',
    layout: { pageTitle: 'Account settings', breadcrumb: 'Account settings', skipFirstTimeExperience: true },
    nav: { label: 'Account settings', keywords: ['profile', 'password'] },
  }),
  accountSettingsAdvanced: defineRoute('/settings/advanced', {
    area: 'identity',
    page: 'accountAdvanced',
    layout: { pageTitle: 'Advanced account settings', breadcrumb: 'Advanced account settings', skipFirstTimeExperience: true },
    nav: { label: 'Advanced account settings', parent: 'accountSettings', keywords: ['two-factor', '2fa', 'totp', 'backup codes', 'sessions'], description: 'Manage second factors and the sessions of your Console account.' },
  }),
  getStartedGeneral: defineRoute('/get-started', {
    area: 'general',
    page: 'tour',
    layout: { pageTitle: 'Guided tour', breadcrumb: 'Guided tour' },
    nav: { label: 'Guided tour', group: 'console', icon: 'Rocket', order: 30, keywords: ['onboarding', 'get started', 'checklist'], description: 'A guided tour from your first project to your first signed-in user.' },
  }),
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
} as const;
