import { defineRoute } from '../lib/route-def';
import { W } from './kit';

/** The workspace list and the pages of one workspace (`/workspaces/{workspace}/…`). */
export const WORKSPACE_ROUTES = {
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
  workspaceAuditLog: defineRoute(`${W}/settings/audit-log`, {
    area: 'workspace',
    page: 'workspaceAuditLog',
    layout: { pageTitle: 'Audit log', breadcrumb: 'Audit log', wide: true },
    nav: { label: 'Audit log', group: 'workspace', icon: 'ClipboardList', order: 55, keywords: ['audit', 'who changed', 'activity', 'security log'], description: 'Lists who changed what in this workspace and its projects, when, and whether it worked.' },
  }),
  workspaceSettings: defineRoute(`${W}/settings`, {
    area: 'workspace',
    page: 'workspaceSettings',
    layout: { pageTitle: 'Workspace settings', breadcrumb: 'Settings' },
    nav: { label: 'Settings', group: 'workspace', icon: 'Settings', order: 60, keywords: ['workspace settings', 'rename'] },
  }),
} as const;
