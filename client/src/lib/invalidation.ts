import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/routers/_app';

type Outputs = inferRouterOutputs<AppRouter>;
/** 'projects.list', 'workspaces.get', …: every procedure of the app router by its path. */
export type ProcedurePath = { [A in keyof Outputs]: `${A & string}.${keyof Outputs[A] & string}` }[keyof Outputs];

type Routers = AppRouter['_def']['record'];
type RecordOf<T> = T extends { _def: { record: infer R } } ? R : T;
/** 'projects.create', 'members.remove', …: every mutation of the app router by its path. */
export type MutationPath = {
  [A in keyof Routers]: { [P in keyof RecordOf<Routers[A]>]: RecordOf<Routers[A]>[P] extends { _def: { type: 'mutation' } } ? `${A & string}.${P & string}` : never }[keyof RecordOf<Routers[A]>];
}[keyof Routers];

/** What a configuration file may change: every query that reads a project's configuration. */
const CONFIGURATION_READS: ProcedurePath[] = [
  'projectHistory.list',
  'projectHistory.get',
  'actions.get',
  'projects.get',
  'projects.list',
  'projects.configuration',
  'workspaces.listProjects',
  'projectConfig.get',
  'oauth2Config.get',
  'permissionRules.get',
  'relationships.namespaces',
  'socialProviders.list',
  'socialProviders.get',
  'schemas.list',
  'identities.schemas',
  'messaging.templates',
  'messaging.getTemplate',
  'messaging.emailConfig',
  'messaging.smsConfig',
  'samlProviders.list',
  'samlProviders.get',
];

/**
 * The one map of which cached queries each mutation makes stale: every mutation of the router has an
 * entry (`satisfies Record<MutationPath, …>`), an empty one when it changes nothing a page shows. After a mutation succeeds, every query
 * listed here is refetched (when shown) or marked stale. Pages still put a mutation's own answer in the
 * cache (setData) when they have it; lists are never patched by hand.
 */
export const INVALIDATES = {
  'projects.create': ['projects.list', 'workspaces.listProjects'],
  'auth.revokeSession': ['auth.sessions'],
  'auth.revokeOtherSessions': ['auth.sessions'],
  'auth.deleteAccount': ['auth.session', 'auth.sessions'],
  'projects.update': ['projects.list', 'workspaces.listProjects'],
  'projects.setEnvironment': ['projects.list', 'workspaces.listProjects', 'quota.get'],
  'projects.delete': ['projects.list', 'projects.getActive', 'workspaces.listProjects'],
  'projects.setActive': ['projects.getActive'],
  'projects.createPlain': ['projects.list', 'workspaces.listProjects'],
  // The whole configuration: what every page of the project reads from it.
  'projects.replace': ['projects.get', 'projects.list', 'projects.configuration', 'workspaces.listProjects', 'schemas.list', 'identities.schemas', 'messaging.templates', 'messaging.getTemplate', 'messaging.emailConfig', 'messaging.smsConfig'],
  'projects.patch': ['projects.get', 'projects.list', 'projects.configuration', 'workspaces.listProjects', 'schemas.list', 'identities.schemas', 'messaging.templates', 'messaging.getTemplate', 'messaging.emailConfig', 'messaging.smsConfig'],
  'projects.replaceNormalized': ['projects.get', 'projects.list', 'projects.configuration', 'workspaces.listProjects', 'schemas.list', 'identities.schemas', 'messaging.templates', 'messaging.getTemplate', 'messaging.emailConfig', 'messaging.smsConfig'],
  'workspaces.create': ['workspaces.list'],
  'workspaces.update': ['workspaces.list'],
  'workspaces.leave': ['workspaces.list', 'projects.list', 'members.list'],
  'workspaces.delete': ['workspaces.list'],
  'workspaces.addProject': ['projects.list', 'projects.get', 'workspaces.listProjects'],
  'members.setRole': ['members.list', 'permissions.project', 'permissions.workspace'],
  'members.remove': ['members.list', 'quota.get', 'apiKeys.list', 'invites.list', 'members.keys', 'projects.progress'],
  'invites.create': ['invites.list', 'quota.get', 'projects.progress'],
  'invites.cancel': ['invites.list', 'quota.get', 'projects.progress'],
  'invites.remove': ['invites.list', 'quota.get', 'projects.progress'],
  'invites.accept': ['invites.mine', 'projects.list', 'workspaces.list', 'members.list'],
  'invites.decline': ['invites.mine'],
  'invites.link': ['invites.mine'],
  'apiKeys.create': ['apiKeys.list'],
  'apiKeys.delete': ['apiKeys.list'],
  'billing.changePlan': ['billing.getSubscription', 'billing.invoices', 'quota.get', 'workspaces.get', 'workspaces.list', 'projects.get'],
  'messaging.setTemplate': ['messaging.templates', 'messaging.getTemplate'],
  'messaging.resetTemplate': ['messaging.templates', 'messaging.getTemplate'],
  'messaging.testSend': ['messaging.messages'],
  'messaging.setEmailConfig': ['messaging.emailConfig'],
  'messaging.setSmsConfig': ['messaging.smsConfig'],
  'billing.unlinkProject': ['billing.getSubscription', 'billing.invoices', 'quota.get', 'projects.get'],
  'schemas.create': ['schemas.list'],
  'schemas.update': ['schemas.list', 'schemas.get', 'identities.schemas'],
  'schemas.setDefault': ['schemas.list', 'identities.schemas', 'projects.get'],
  'schemas.validate': [],
  'identities.checkTraits': [],
  // A read sent as a mutation (a thousand addresses do not fit in a URL): it changes nothing.
  'identities.existingAddresses': [],
  'identities.create': ['identities.list', 'projects.progress'],
  'identities.import': ['identities.list', 'projects.progress'],
  'identities.update': ['identities.list'],
  'identities.setState': ['identities.list'],
  // Not identities.get: the page of the identity just deleted would ask for it again before it leaves.
  'identities.delete': ['identities.list', 'sessions.list', 'projects.progress'],
  'identities.deleteCredential': ['identities.get'],
  'identities.createRecoveryCode': [],
  'identities.createRecoveryLink': [],
  'sessions.extend': ['sessions.list', 'sessions.get'],
  'sessions.revoke': ['sessions.list', 'sessions.get'],
  'sessions.revokeAll': ['sessions.list', 'sessions.get'],
  // Spec §7: list, create, set and delete refresh the project's client list; patch does not.
  'oauth2Clients.create': ['oauth2Clients.list', 'projects.progress'],
  'oauth2Clients.set': ['oauth2Clients.list', 'oauth2Clients.get'],
  'oauth2Clients.delete': ['oauth2Clients.list', 'projects.progress'],
  'oauth2Clients.patch': ['oauth2Clients.get'],
  'oauth2Clients.rotateSecret': [],
  'oauth2Config.setLifespans': ['oauth2Config.get', 'projects.get'],
  'oauth2Config.setStrategies': ['oauth2Config.get', 'projects.get'],
  'oauth2Config.setUrls': ['oauth2Config.get', 'projects.get'],
  'oauth2Config.setConfigure': ['oauth2Config.get', 'projects.get'],
  'oauth2Config.setOpenId': ['oauth2Config.get', 'projects.get'],
  'oauth2Config.setCookies': ['oauth2Config.get', 'projects.get'],
  // A restored revision may change anything the configuration holds.
  'projectHistory.restore': [...CONFIGURATION_READS, 'identities.list'],
  // An imported configuration file may change anything the configuration holds, as a restore does.
  'projectHistory.import': CONFIGURATION_READS,
  // A project file adds schemas, themes, clients, relationships and identities besides the configuration.
  'projectHistory.importBundle': [
    ...CONFIGURATION_READS,
    'schemas.get',
    'branding.get',
    'oauth2Clients.list',
    'relationships.list',
    'relationships.count',
    'identities.list',
  ],
  'projectConfig.setAuthentication': ['projectConfig.get', 'projects.get'],
  'projectConfig.setPasswordless': ['projectConfig.get', 'projects.get'],
  'projectConfig.setMfa': ['projectConfig.get', 'projects.get'],
  'projectConfig.setRecovery': ['projectConfig.get', 'projects.get'],
  'projectConfig.setVerification': ['projectConfig.get', 'projects.get'],
  'projectConfig.setSessions': ['projectConfig.get', 'projects.get'],
  'projectConfig.setBrowserRedirects': ['projectConfig.get', 'projects.get'],
  'projectConfig.setUi': ['projectConfig.get', 'projects.get'],
  // The edit dialog reads the client from the list: its lifespans must be the saved ones when it opens again.
  'oauth2Clients.setLifespans': ['oauth2Clients.get', 'oauth2Clients.list'],
  'oauth2Clients.deleteRotatedSecrets': [],
  'oauth2Sessions.revokeConsent': ['oauth2Sessions.listConsent'],
  'oauth2Sessions.revokeLogin': [],
  // The console's consent page leaves for the application at once: nothing on screen to refresh.
  'oauth2Consent.accept': [],
  'oauth2Consent.reject': [],
  'oauth2Keys.create': ['oauth2Keys.get'],
  'oauth2Keys.deleteKey': ['oauth2Keys.get'],
  'oauth2Keys.deleteSet': ['oauth2Keys.get'],
  'oauth2TrustedIssuers.trust': ['oauth2TrustedIssuers.list'],
  'oauth2TrustedIssuers.delete': ['oauth2TrustedIssuers.list', 'oauth2TrustedIssuers.get'],
  // A relationship changes every answer about it: the lists, counts and the debugger's checks and trees.
  'relationships.create': ['relationships.list', 'relationships.count', 'permissions.check', 'permissions.expand'],
  'relationships.delete': ['relationships.list', 'relationships.count', 'permissions.check', 'permissions.expand'],
  'relationships.deleteMatching': ['relationships.list', 'relationships.count', 'permissions.check', 'permissions.expand'],
  'permissionRules.set': ['permissionRules.get', 'relationships.namespaces', 'permissions.check', 'permissions.expand'],
  'permissionRules.setFeatureFlags': ['permissionRules.get', 'permissions.check', 'permissions.expand', 'projects.get'],
  'socialProviders.set': ['socialProviders.list', 'socialProviders.get', 'projects.get'],
  'socialProviders.delete': ['socialProviders.list', 'projects.get'],
  'socialProviders.setEnabled': ['socialProviders.list', 'projects.get'],
  'samlProviders.set': ['samlProviders.list', 'samlProviders.get', 'projects.get', 'quota.get'],
  'samlProviders.delete': ['samlProviders.list', 'projects.get', 'quota.get'],
  // Reading metadata changes nothing.
  'samlProviders.parseMetadata': [],
  // Custom domains count against the plan's custom_domains quota.
  'domains.create': ['domains.list', 'quota.get'],
  'domains.update': ['domains.list'],
  'domains.delete': ['domains.list', 'quota.get'],
  // Themes count against the plan's branding_themes quota.
  'branding.createTheme': ['branding.get', 'quota.get'],
  'branding.updateTheme': ['branding.get'],
  'branding.deleteTheme': ['branding.get', 'quota.get'],
  'branding.activate': ['branding.get'],
  'branding.deactivate': ['branding.get'],
  // Event streams count against the plan's event_streams quota; replays and test sends add to the log.
  'actions.set': ['actions.get', 'projects.get', 'projectConfig.get', 'projectHistory.list'],
  'eventStreams.create': ['eventStreams.list', 'quota.get'],
  'eventStreams.set': ['eventStreams.list'],
  'eventStreams.delete': ['eventStreams.list', 'quota.get'],
  'eventStreams.replay': ['eventStreams.deliveries'],
  'eventStreams.sendTest': ['eventStreams.deliveries'],
  'organizations.create': ['organizations.list', 'quota.get'],
  'organizations.update': ['organizations.list', 'organizations.get'],
  'organizations.delete': ['organizations.list', 'quota.get'],
  'onboardingLinks.create': ['onboardingLinks.list'],
  'onboardingLinks.update': ['onboardingLinks.list'],
  'onboardingLinks.delete': ['onboardingLinks.list'],
} as const satisfies Record<MutationPath, readonly ProcedurePath[]>;

/** A tRPC mutation key ([['projects', 'create']]) as a procedure path ('projects.create'). */
export function pathOfKey(key: readonly unknown[] | undefined): string | undefined {
  const first = key?.[0];
  return Array.isArray(first) && first.every((part) => typeof part === 'string') ? first.join('.') : undefined;
}

/** The query-key prefixes ([['projects', 'list']]) to invalidate after the mutation with this key. */
export function invalidatedKeys(mutationKey: readonly unknown[] | undefined): string[][][] {
  const path = pathOfKey(mutationKey);
  const paths: readonly string[] = path && path in INVALIDATES ? INVALIDATES[path as keyof typeof INVALIDATES] : [];
  return paths.map((p) => [p.split('.')]);
}
