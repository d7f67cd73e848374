import { expect } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { DOCUMENTS_AND_FOLDERS } from '../../shared/permissions/templates';

const CONSOLE_VERSION = pkg.version;

/** What user A owns, and user B (a member of nothing of A's) owns, when the matrix runs. */
export interface MatrixFixture {
  a: {
    identityId: string;
    email: string;
    /** Another session of A's own console account (a second sign-in), for A to end. */
    consoleSession: string;
    workspace: string;
    project: string;
    looseProject: string;
    doomedProject: string;
    /** Developers of A's workspace. */
    memberToRemove: string;
    memberForRole: string;
    /** Invites A sent from A's workspace, and invites sent to A from B's. */
    inviteToCancel: string;
    inviteToRemove: string;
    inviteToAccept: string;
    inviteToDecline: string;
    /** A key of A's project. */
    apiKey: string;
    /** An invite to another address, with its link token, that A attaches to their account. */
    inviteToLink: string;
    inviteToLinkToken: string;
    /** An empty workspace of A's to delete, and a workspace A shares with another owner and may leave. */
    doomedWorkspace: string;
    workspaceToLeave: string;
    /** A project of A's with its own subscription. */
    subscribedProject: string;
    /** End users of A's project (identities of its data plane) and a session of the first. */
    endUser: string;
    endUserSession: string;
    doomedEndUser: string;
    credentialEndUser: string;
    /** A courier message of A's project (a test send). */
    courierMessage: string;
    /** A managed identity schema of A's project. */
    identitySchema: string;
    /** OAuth2 clients of A's project: one to read and edit, one to delete. */
    oauth2Client: string;
    doomedOAuth2Client: string;
    /** Custom domains of A's project: one to edit, one to remove. */
    customDomain: string;
    doomedCustomDomain: string;
    /** Branding themes of A's project: one to edit and activate, one to delete. */
    brandingTheme: string;
    doomedBrandingTheme: string;
    /** Trusted JWT-grant issuers of A's project: one to read, one to delete. */
    trustedIssuer: string;
    doomedTrustedIssuer: string;
    /** Event streams of A's loose project (on a plan with streams): one to change and read, one to delete, and a delivery of the first. */
    eventStream: string;
    doomedEventStream: string;
    streamDelivery: string;
    /** Consent requests of the console's own OAuth2 server for A (a command-line tool asking): to read, allow, deny. */
    consentChallenge: string;
    consentToAccept: string;
    consentToReject: string;
    /** A project of A's on Growth (organizations), its organizations (to edit, to delete) and onboarding links (to edit, to delete). */
    organizationProject: string;
    organization: string;
    doomedOrganization: string;
    onboardingLink: string;
    doomedOnboardingLink: string;
    /** Revisions of the organizations project's configuration: the first, and the current one (after a rename). */
    oldRevision: string;
    currentRevision: string;
    /** A project of A's on Enterprise (saml_sp) with SAML providers, and the IdP metadata (of a local test identity provider) they use. */
    samlProject: string;
    samlMetadata: string;
    /** A project of A's that an imported configuration replaces, and its current revision. */
    importProject: string;
    importRevision: string;
    /** A project of A's that an imported project file fills, and its current revision. */
    bundleProject: string;
    bundleRevision: string;
    /** An event of A's project in the audit log (its workspace's log and its own). */
    auditEvent: string;
  };
  b: { identityId: string; email: string; workspace: string; project: string };
}

/**
 * What B gets when calling a procedure against A's objects:
 *  - refused: FORBIDDEN or NOT_FOUND, for every input in `attempts` (default: A's own input);
 *  - absent:  an answer in which none of A's objects appear (`ids` lists the answer's ids);
 *  - denied:  every permission asked answers false;
 *  - own:     the procedure touches only the caller's own objects (`check` says whose answer it is).
 *  - ownRefusal: the procedure acts on the caller's own account alone and refuses both users here (deleting an
 *    account that is the last owner of a workspace); `check` says the refusal is about the caller's own objects.
 * A calling with `input` always succeeds (and, for `absent`, sees its own objects), but for `ownRefusal`.
 */
export type MatrixRow =
  | { b: 'refused'; input: (f: MatrixFixture) => unknown; attempts?: (f: MatrixFixture) => unknown[] }
  | { b: 'absent'; input: (f: MatrixFixture) => unknown; ids: (answer: unknown) => string[]; aSees: (f: MatrixFixture) => string[] }
  | { b: 'denied'; input: (f: MatrixFixture) => unknown }
  | { b: 'own'; input: (f: MatrixFixture) => unknown; check: (answer: unknown, f: MatrixFixture, who: 'a' | 'b') => void }
  | {
      b: 'ownRefusal';
      /** B's attempts (A's own input among them); A calls with `input(f, 'a')`. */
      attempts: (f: MatrixFixture) => unknown[];
      input: (f: MatrixFixture, who: 'a' | 'b') => unknown;
      check: (error: { code: string; message: string }, f: MatrixFixture, who: 'a' | 'b', input: unknown) => void;
    };

const PROJECT_PERMISSIONS = ['backoffice.project.read', 'backoffice.project.write', 'backoffice.project.delete', 'backoffice.project.upgrade'];
const WORKSPACE_PERMISSIONS = ['backoffice.workspace.read', 'backoffice.workspace.write', 'backoffice.workspace.delete', 'backoffice.workspace.upgrade'];

/** An identity schema every end user of the fixtures matches (an email, an optional name, anything else). */
const MATRIX_SCHEMA = JSON.stringify({
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: { email: { type: 'string', 'ory.sh/kratos': { credentials: { password: { identifier: true } } } }, name: { type: 'string' } },
      required: ['email'],
    },
  },
});

/** A trust relationship's form for an issuer, with a made-up public key (the matrix never verifies a grant with it). */
export const matrixIssuer = (issuer: string, kid: string) => ({
  issuer,
  allow_any_subject: true,
  scope: ['openid'],
  jwk: { kty: 'EC', crv: 'P-256', kid, x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' },
  expires_at: '2099-01-01T00:00:00Z',
});

const idsOf = (list: unknown) => (list as { id: string }[]).map((item) => item.id);

/**
 * The two-user access matrix: one row per procedure of appRouter, keyed by its path. The procedures test
 * fails when a procedure has no row here, or a row names a procedure that no longer exists.
 */
export const ACCESS_MATRIX: Record<string, MatrixRow> = {
  'auth.session': {
    b: 'own',
    input: () => undefined,
    check: (answer, f, who) => expect((answer as { session: { identity: { id: string } } }).session.identity.id).toBe(f[who].identityId),
  },

  'auth.sessions': {
    b: 'own',
    input: () => undefined,
    check: (answer, f, who) => {
      const { identityId, sessions } = answer as { identityId: string; sessions: { id: string; current: boolean }[] };
      expect(identityId).toBe(f[who].identityId);
      expect(sessions[0]?.current).toBe(true);
      if (who === 'b') expect(sessions.map((s) => s.id)).not.toContain(f.a.consoleSession);
    },
  },
  // B cannot end A's session (the identity provider finds no such session of B's); A ends its own other one.
  'auth.revokeSession': { b: 'refused', input: (f) => ({ sessionId: f.a.consoleSession }) },
  'auth.revokeOtherSessions': {
    b: 'own',
    input: () => undefined,
    check: (answer) => expect((answer as { count: number }).count).toBeGreaterThanOrEqual(0),
  },

  // Deleting the console account: B typing A's address is refused (it is not B's), and B and A deleting their own
  // accounts are refused while each is the last owner of its own workspace, whose name alone the refusal gives.
  'auth.deleteAccount': {
    b: 'ownRefusal',
    attempts: (f) => [{ confirmEmail: f.a.email }, { confirmEmail: f.b.email }],
    input: (f, who) => ({ confirmEmail: f[who].email }),
    check: (error, f, who, input) => {
      if (who === 'b' && (input as { confirmEmail: string }).confirmEmail === f.a.email) {
        expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'Type your email address exactly to confirm deletion' });
        return;
      }
      expect(error.code).toBe('CONFLICT');
      expect(error.message).toMatch(/^You are the last owner of workspaces? /);
      expect(error.message).toContain(who === 'a' ? '"Private"' : '"Mine"');
      expect(error.message).not.toContain(who === 'a' ? '"Mine"' : '"Private"');
    },
  },

  'system.version': {
    b: 'own',
    input: () => undefined,
    check: (answer) => expect(answer).toEqual({ version: CONSOLE_VERSION }),
  },

  'workspaces.list': { b: 'absent', input: () => undefined, ids: (answer) => idsOf((answer as { workspaces: unknown }).workspaces), aSees: (f) => [f.a.workspace] },
  'workspaces.get': { b: 'refused', input: (f) => ({ workspaceId: f.a.workspace }) },
  'workspaces.create': {
    b: 'own',
    input: () => ({ name: 'Created by the caller' }),
    check: (answer) => expect(answer).toMatchObject({ name: 'Created by the caller' }),
  },
  'workspaces.update': { b: 'refused', input: (f) => ({ workspaceId: f.a.workspace, name: 'Renamed' }) },
  'workspaces.leave': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspaceToLeave }),
    attempts: (f) => [{ workspaceId: f.a.workspace }, { workspaceId: f.a.workspaceToLeave }],
  },
  'workspaces.delete': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.doomedWorkspace, confirmName: 'Doomed workspace' }),
    attempts: (f) => [
      { workspaceId: f.a.doomedWorkspace, confirmName: 'Doomed workspace' },
      { workspaceId: f.a.workspace, confirmName: 'Private' },
    ],
  },
  'workspaces.listProjects': {
    b: 'absent',
    input: (f) => ({ workspaceId: f.a.workspace }),
    ids: idsOf,
    aSees: (f) => [f.a.project],
  },
  'workspaces.addProject': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, projectId: f.a.looseProject }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, projectId: f.a.looseProject },
      { workspaceId: f.a.workspace, projectId: f.b.project },
      { workspaceId: f.b.workspace, projectId: f.a.project },
      { workspaceId: f.b.workspace, projectId: f.a.looseProject },
    ],
  },

  'projects.list': { b: 'absent', input: () => undefined, ids: idsOf, aSees: (f) => [f.a.project, f.a.looseProject] },
  'projects.get': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.looseProject }],
  },
  'projects.endpoint': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.looseProject }],
  },
  'projects.progress': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.looseProject }],
  },
  'auditLog.list': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace }),
    attempts: (f) => [{ workspaceId: f.a.workspace }, { workspaceId: f.a.workspace, action: 'project' }, { projectId: f.a.project }, { projectId: f.a.looseProject }],
  },
  'auditLog.export': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, format: 'csv' }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, format: 'csv' },
      { workspaceId: f.a.workspace, forProjectId: f.a.project, format: 'json' },
      { projectId: f.a.project, format: 'json' },
      { projectId: f.a.looseProject, format: 'csv' },
    ],
  },
  'auditLog.get': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, eventId: f.a.auditEvent }),
    attempts: (f) => [{ workspaceId: f.a.workspace, eventId: f.a.auditEvent }, { projectId: f.a.project, eventId: f.a.auditEvent }],
  },
  'projectHistory.list': { b: 'refused', input: (f) => ({ projectId: f.a.organizationProject }), attempts: (f) => [{ projectId: f.a.organizationProject }, { projectId: f.a.project }] },
  'projectHistory.get': { b: 'refused', input: (f) => ({ projectId: f.a.organizationProject, revisionId: f.a.oldRevision }) },
  'projectHistory.restore': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, revisionId: f.a.oldRevision, currentRevisionId: f.a.currentRevision }),
  },
  'projectHistory.export': { b: 'refused', input: (f) => ({ projectId: f.a.organizationProject }), attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.looseProject }] },
  'projectHistory.import': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.importProject, currentRevisionId: f.a.importRevision, file: { format: 'ory-console-project-config', version: 1, name: 'Imported', services: {} } }),
    attempts: (f) => [
      { projectId: f.a.importProject, currentRevisionId: f.a.importRevision, file: { format: 'ory-console-project-config', version: 1, name: 'Hijacked', services: {} } },
      { projectId: f.a.project, currentRevisionId: f.a.importRevision, file: { format: 'ory-console-project-config', version: 1, name: 'Hijacked', services: {} } },
    ],
  },
  'projectHistory.exportBundle': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, includeIdentities: true }),
    attempts: (f) => [{ projectId: f.a.project, includeIdentities: true }, { projectId: f.a.looseProject }],
  },
  'projectHistory.importBundle': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.bundleProject, currentRevisionId: f.a.bundleRevision, file: { format: 'ory-console-project', version: 1, name: 'Imported', services: {}, identity_schemas: [], themes: [], oauth2_clients: [], relation_tuples: [] } }),
    attempts: (f) => [
      { projectId: f.a.bundleProject, currentRevisionId: f.a.bundleRevision, file: { format: 'ory-console-project', version: 1, name: 'Hijacked', services: {}, identity_schemas: [], themes: [], oauth2_clients: [], relation_tuples: [] } },
      { projectId: f.a.project, currentRevisionId: f.a.bundleRevision, file: { format: 'ory-console-project', version: 1, name: 'Hijacked', services: {}, identity_schemas: [], themes: [], oauth2_clients: [], relation_tuples: [] } },
    ],
  },
  'projects.create': { b: 'refused', input: (f) => ({ name: 'Planted', environment: 'dev', workspaceId: f.a.workspace }) },
  'projects.update': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, name: 'Renamed' }),
    attempts: (f) => [{ projectId: f.a.project, name: 'Hijacked' }, { projectId: f.a.looseProject, name: 'Hijacked' }],
  },
  'projects.setEnvironment': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, environment: 'stage' }),
    attempts: (f) => [{ projectId: f.a.project, environment: 'dev' }, { projectId: f.a.looseProject, environment: 'prod' }],
  },
  'projects.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.doomedProject, confirmName: 'Doomed' }),
    attempts: (f) => [
      { projectId: f.a.doomedProject, confirmName: 'Doomed' },
      { projectId: f.a.project, confirmName: 'Secret' },
    ],
  },
  'projects.getActive': { b: 'refused', input: () => undefined },
  'projects.setActive': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.looseProject }],
  },
  'projects.members': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'projects.createPlain': {
    b: 'refused',
    input: (f) => ({ name: 'Planted plain', environment: 'dev', workspaceId: f.a.workspace }),
  },
  'projects.configuration': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.looseProject }],
  },
  'projects.replace': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, configuration: { name: 'Loose, replaced', services: {}, cors_public: { enabled: true, origins: ['https://a.example'] } } }),
    attempts: (f) => [
      { projectId: f.a.looseProject, configuration: { name: 'Hijacked', services: {} } },
      { projectId: f.a.project, configuration: { name: 'Hijacked', services: {} } },
    ],
  },
  'projects.patch': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, patch: [{ op: 'replace', path: '/cors_admin', value: { enabled: false, origins: [] } }] }),
    attempts: (f) => [
      { projectId: f.a.looseProject, patch: [{ op: 'replace', path: '/name', value: 'Hijacked' }] },
      { projectId: f.a.project, patch: [{ op: 'replace', path: '/name', value: 'Hijacked' }] },
    ],
  },
  'projects.replaceNormalized': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, revision: { name: 'Loose, normalized' } }),
    attempts: (f) => [
      { projectId: f.a.looseProject, revision: { name: 'Hijacked' } },
      { projectId: f.a.project, revision: { name: 'Hijacked' } },
    ],
  },

  'members.list': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace }),
    attempts: (f) => [{ workspaceId: f.a.workspace }, { projectId: f.a.project }, { projectId: f.a.looseProject }],
  },
  'members.setRole': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, memberId: f.a.memberForRole, role: 'owner' }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, memberId: f.a.identityId, role: 'developer' },
      { workspaceId: f.a.workspace, memberId: f.b.identityId, role: 'owner' },
      { projectId: f.a.looseProject, memberId: f.a.identityId, role: 'developer' },
    ],
  },
  'members.keys': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, memberId: f.a.identityId }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, memberId: f.a.identityId },
      { projectId: f.a.project, memberId: f.a.identityId },
      { projectId: f.a.looseProject, memberId: f.a.identityId },
    ],
  },
  'members.remove': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, memberId: f.a.memberToRemove }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, memberId: f.a.memberToRemove },
      { workspaceId: f.a.workspace, memberId: f.a.identityId },
      { projectId: f.a.looseProject, memberId: f.a.identityId },
    ],
  },

  'invites.list': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace }),
    attempts: (f) => [{ workspaceId: f.a.workspace }, { projectId: f.a.project }],
  },
  'invites.create': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, email: 'new-colleague@example.com', role: 'developer' }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, email: 'planted@example.com', role: 'owner' },
      { projectId: f.a.project, email: 'planted@example.com', role: 'owner' },
      { projectId: f.a.looseProject, email: 'planted@example.com', role: 'developer' },
    ],
  },
  'invites.mine': {
    b: 'own',
    input: () => undefined,
    check: (answer, f, who) => {
      const ids = idsOf(answer);
      if (who === 'a') expect(ids).toEqual(expect.arrayContaining([f.a.inviteToAccept, f.a.inviteToDecline]));
      else expect(ids.filter((id) => Object.values(f.a).includes(id))).toEqual([]);
    },
  },
  // Public to whoever holds the emailed link (id and token): who invited whom to what, and nothing more.
  // B holds no token of A's invites; a made-up or another invite's token shows nothing.
  'invites.getPublic': {
    b: 'refused',
    input: (f) => ({ inviteId: f.a.inviteToLink, token: f.a.inviteToLinkToken }),
    attempts: (f) => [{ inviteId: f.a.inviteToLink, token: '00000000-0000-4000-8000-000000000000' }, { inviteId: f.a.inviteToCancel, token: f.a.inviteToLinkToken }],
  },
  // B holds no link token of A's invites; a made-up token finds nothing.
  'invites.link': {
    b: 'refused',
    input: (f) => ({ inviteId: f.a.inviteToLink, token: f.a.inviteToLinkToken }),
    attempts: (f) => [{ inviteId: f.a.inviteToLink, token: '00000000-0000-4000-8000-000000000000' }, { inviteId: f.a.inviteToAccept, token: f.a.inviteToLinkToken }],
  },
  'invites.accept': { b: 'refused', input: (f) => ({ inviteId: f.a.inviteToAccept }) },
  'invites.decline': { b: 'refused', input: (f) => ({ inviteId: f.a.inviteToDecline }) },
  'invites.cancel': { b: 'refused', input: (f) => ({ inviteId: f.a.inviteToCancel }) },
  'invites.remove': { b: 'refused', input: (f) => ({ inviteId: f.a.inviteToRemove }) },

  'apiKeys.list': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.looseProject }, { workspaceId: f.a.workspace }],
  },
  'apiKeys.create': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, name: 'Deploys' }),
    attempts: (f) => [{ projectId: f.a.project, name: 'Planted' }, { workspaceId: f.a.workspace, name: 'Planted' }],
  },
  'apiKeys.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, keyId: f.a.apiKey }),
    attempts: (f) => [
      { projectId: f.a.project, keyId: f.a.apiKey },
      { projectId: f.b.project, keyId: f.a.apiKey },
    ],
  },

  'quota.all': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { workspaceId: f.a.workspace }],
  },
  'quota.get': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, feature: 'collaborator_seats' }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, feature: 'collaborator_seats' },
      { projectId: f.a.project, feature: 'custom_domains' },
    ],
  },

  'billing.plans': {
    b: 'own',
    input: () => undefined,
    check: (answer) => expect((answer as { id: string }[]).map((p) => p.id)).toEqual(['Develop@0', 'Production@0', 'Growth@0', 'enterprise']),
  },
  'billing.getSubscription': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace }),
    attempts: (f) => [{ workspaceId: f.a.workspace }, { projectId: f.a.project }],
  },
  'billing.changePlan': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace, plan: 'Growth@0', interval: 'yearly', currency: 'usd' }),
    attempts: (f) => [
      { workspaceId: f.a.workspace, plan: 'Develop@0', interval: 'monthly', currency: 'usd' },
      { projectId: f.a.looseProject, plan: 'Growth@0', interval: 'monthly', currency: 'eur' },
    ],
  },
  'billing.invoices': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace }),
    attempts: (f) => [{ workspaceId: f.a.workspace }, { projectId: f.a.subscribedProject }],
  },
  'billing.portalUrl': {
    b: 'refused',
    input: (f) => ({ workspaceId: f.a.workspace }),
    attempts: (f) => [{ workspaceId: f.a.workspace }, { projectId: f.a.subscribedProject }],
  },
  'billing.unlinkProject': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.subscribedProject }),
    attempts: (f) => [{ projectId: f.a.subscribedProject }, { projectId: f.a.looseProject }],
  },

  'identities.list': { b: 'refused', input: (f) => ({ projectId: f.a.project }), attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.project, search: '@' }] },
  'identities.schemas': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'identities.checkTraits': { b: 'refused', input: (f) => ({ projectId: f.a.project, schemaId: 'default', traits: [{ email: 'checked@example.com' }] }) },
  'identities.existingAddresses': { b: 'refused', input: (f) => ({ projectId: f.a.project, addresses: ['checked@example.com'] }) },
  'identities.get': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, identityId: f.a.endUser }),
    // B's own project does not reach A's end users either.
    attempts: (f) => [
      { projectId: f.a.project, identityId: f.a.endUser },
      { projectId: f.b.project, identityId: f.a.endUser },
    ],
  },
  'identities.create': { b: 'refused', input: (f) => ({ projectId: f.a.project, schemaId: 'default', traits: { email: 'matrix-created@example.com' } }) },
  'identities.update': { b: 'refused', input: (f) => ({ projectId: f.a.project, identityId: f.a.endUser, metadataPublic: { matrix: true } }) },
  'identities.setState': { b: 'refused', input: (f) => ({ projectId: f.a.project, identityId: f.a.endUser, state: 'active' }) },
  'identities.createRecoveryCode': { b: 'refused', input: (f) => ({ projectId: f.a.project, identityId: f.a.endUser }) },
  'identities.createRecoveryLink': { b: 'refused', input: (f) => ({ projectId: f.a.project, identityId: f.a.endUser }) },
  'identities.deleteCredential': { b: 'refused', input: (f) => ({ projectId: f.a.project, identityId: f.a.credentialEndUser, type: 'password' }) },
  'identities.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, identityId: f.a.doomedEndUser }),
    attempts: (f) => [
      { projectId: f.a.project, identityId: f.a.doomedEndUser },
      { projectId: f.b.project, identityId: f.a.doomedEndUser },
    ],
  },
  'identities.import': { b: 'refused', input: (f) => ({ projectId: f.a.project, identities: [{ schemaId: 'default', traits: { email: 'matrix-imported@example.com' } }] }) },
  'relationships.list': { b: 'refused', input: (f) => ({ projectId: f.a.project, namespace: 'File' }) },
  'relationships.namespaces': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'relationships.count': { b: 'refused', input: (f) => ({ projectId: f.a.project, namespace: 'File' }) },
  'relationships.create': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, namespace: 'File', object: 'matrix-doc', relation: 'viewers', subject: { id: 'matrix' } }),
    attempts: (f) => [
      { projectId: f.a.project, namespace: 'File', object: 'matrix-doc', relation: 'viewers', subject: { id: 'matrix' } },
      { projectId: f.a.project, namespace: 'File', object: 'matrix-doc', relation: 'viewers', subject: { set: { namespace: 'Group', object: 'g', relation: 'members' } } },
    ],
  },
  'relationships.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, namespace: 'File', object: 'matrix-doc', relation: 'viewers', subject: { id: 'matrix' } }),
  },
  'relationships.deleteMatching': { b: 'refused', input: (f) => ({ projectId: f.a.project, namespace: 'File', object: 'matrix-doomed', expectedCount: 1 }) },
  'permissionRules.get': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'permissionRules.validate': { b: 'refused', input: (f) => ({ projectId: f.a.project, opl: 'class User implements Namespace {}' }) },
  'permissionRules.set': { b: 'refused', input: (f) => ({ projectId: f.a.project, opl: DOCUMENTS_AND_FOLDERS }) },
  'permissionRules.setFeatureFlags': { b: 'refused', input: (f) => ({ projectId: f.a.project, expand_rewrites: true }) },
  'branding.get': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'branding.createTheme': { b: 'refused', input: (f) => ({ projectId: f.a.project, name: 'Matrix new', primary_color: '#123456' }) },
  'branding.updateTheme': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, themeId: f.a.brandingTheme, primary_color: '#654321' }),
    attempts: (f) => [
      { projectId: f.a.project, themeId: f.a.brandingTheme, name: 'Planted' },
      { projectId: f.b.project, themeId: f.a.brandingTheme, name: 'Planted' },
    ],
  },
  'branding.deleteTheme': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, themeId: f.a.doomedBrandingTheme }),
    attempts: (f) => [
      { projectId: f.a.project, themeId: f.a.doomedBrandingTheme },
      { projectId: f.b.project, themeId: f.a.brandingTheme },
    ],
  },
  'branding.activate': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, themeId: f.a.brandingTheme }),
    attempts: (f) => [
      { projectId: f.a.project, themeId: f.a.brandingTheme },
      { projectId: f.b.project, themeId: f.a.brandingTheme },
    ],
  },
  'branding.deactivate': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'domains.list': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'domains.create': { b: 'refused', input: (f) => ({ projectId: f.a.project, hostname: 'matrix-new.example.test' }) },
  'domains.update': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, domainId: f.a.customDomain, corsEnabled: true, corsAllowedOrigins: ['https://app.example.test'] }),
    attempts: (f) => [
      { projectId: f.a.project, domainId: f.a.customDomain, corsEnabled: false },
      { projectId: f.b.project, domainId: f.a.customDomain, corsEnabled: false },
    ],
  },
  'domains.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, domainId: f.a.doomedCustomDomain }),
    attempts: (f) => [
      { projectId: f.a.project, domainId: f.a.doomedCustomDomain },
      { projectId: f.b.project, domainId: f.a.customDomain },
    ],
  },
  'organizations.list': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject }),
    attempts: (f) => [{ projectId: f.a.organizationProject }, { projectId: f.a.organizationProject, domain: 'matrix-org.example.test' }],
  },
  'organizations.get': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.organization }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.organization },
      { projectId: f.b.project, organizationId: f.a.organization },
    ],
  },
  'organizations.members': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.organization }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.organization },
      { projectId: f.b.project, organizationId: f.a.organization },
    ],
  },
  'organizations.create': { b: 'refused', input: (f) => ({ projectId: f.a.organizationProject, label: 'Matrix new', domains: ['matrix-new-org.example.test'] }) },
  'organizations.update': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.organization, label: 'Matrix renamed' }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.organization, label: 'Taken over' },
      { projectId: f.b.project, organizationId: f.a.organization, label: 'Taken over' },
    ],
  },
  'organizations.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.doomedOrganization }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.doomedOrganization },
      { projectId: f.b.project, organizationId: f.a.organization },
    ],
  },
  'onboardingLinks.list': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.organization }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.organization },
      { projectId: f.b.project, organizationId: f.a.organization },
    ],
  },
  'onboardingLinks.create': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.organization, enableSso: true, enableScim: false }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.organization, enableSso: true, enableScim: false },
      { projectId: f.b.project, organizationId: f.a.organization, enableSso: true, enableScim: false },
    ],
  },
  'onboardingLinks.update': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.organization, linkId: f.a.onboardingLink, enableSso: true, enableScim: true }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.organization, linkId: f.a.onboardingLink, enableSso: false, enableScim: false },
      { projectId: f.b.project, organizationId: f.a.organization, linkId: f.a.onboardingLink, enableSso: false, enableScim: false },
    ],
  },
  'onboardingLinks.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.organizationProject, organizationId: f.a.organization, linkId: f.a.doomedOnboardingLink }),
    attempts: (f) => [
      { projectId: f.a.organizationProject, organizationId: f.a.organization, linkId: f.a.doomedOnboardingLink },
      { projectId: f.b.project, organizationId: f.a.organization, linkId: f.a.onboardingLink },
    ],
  },
  'permissions.check': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, namespace: 'File', object: 'matrix-doc', relation: 'view', subject: { id: 'matrix' } }),
  },
  'permissions.expand': { b: 'refused', input: (f) => ({ projectId: f.a.project, namespace: 'File', object: 'matrix-doc', relation: 'viewers' }) },
  'schemas.list': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'schemas.presets': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  // The same public document for everyone: nobody's object.
  'schemas.metaSchema': {
    b: 'own',
    input: () => undefined,
    check: (answer) => expect(answer).toMatchObject({ title: 'Ory Identity Schema' }),
  },
  'schemas.get': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, schemaId: f.a.identitySchema }),
    attempts: (f) => [{ projectId: f.a.project, schemaId: f.a.identitySchema }, { projectId: f.b.project, schemaId: f.a.identitySchema }],
  },
  'schemas.validate': { b: 'refused', input: (f) => ({ projectId: f.a.project, schema: '{"type": "object"}' }) },
  'schemas.create': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, name: 'Matrix created', schema: MATRIX_SCHEMA }),
  },
  'schemas.update': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, schemaId: f.a.identitySchema, name: 'Fixture schema', schema: MATRIX_SCHEMA }),
    attempts: (f) => [
      { projectId: f.a.project, schemaId: f.a.identitySchema, name: 'Hijacked', schema: MATRIX_SCHEMA },
      { projectId: f.b.project, schemaId: f.a.identitySchema, name: 'Hijacked', schema: MATRIX_SCHEMA },
    ],
  },
  'schemas.setDefault': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, schemaId: f.a.identitySchema }),
    attempts: (f) => [
      { projectId: f.a.project, schemaId: f.a.identitySchema },
      { projectId: f.b.project, schemaId: f.a.identitySchema },
    ],
  },
  'sessions.list': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.project, identityId: f.a.endUser }],
  },
  'sessions.get': { b: 'refused', input: (f) => ({ projectId: f.a.project, sessionId: f.a.endUserSession }) },
  'sessions.extend': { b: 'refused', input: (f) => ({ projectId: f.a.project, sessionId: f.a.endUserSession }) },
  'sessions.revoke': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, sessionId: f.a.endUserSession }),
    attempts: (f) => [
      { projectId: f.a.project, sessionId: f.a.endUserSession },
      { projectId: f.b.project, sessionId: f.a.endUserSession },
    ],
  },
  'sessions.revokeAll': { b: 'refused', input: (f) => ({ projectId: f.a.project, identityId: f.a.credentialEndUser }) },

  'oauth2Clients.list': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.project, clientName: 'Fixture client' }],
  },
  'oauth2Clients.get': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, clientId: f.a.oauth2Client }),
    // B's own project does not reach A's clients either.
    attempts: (f) => [
      { projectId: f.a.project, clientId: f.a.oauth2Client },
      { projectId: f.b.project, clientId: f.a.oauth2Client },
    ],
  },
  'oauth2Config.get': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'metrics.series': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, eventType: 'LoginSucceeded', resolution: '1h', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }),
  },
  'metrics.attributes': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, attribute: 'method', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }),
  },
  'metrics.eventTypes': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'metrics.sessions': { b: 'refused', input: (f) => ({ projectId: f.a.project, from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }) },
  'metrics.activeUsers': { b: 'refused', input: (f) => ({ projectId: f.a.project, from: '2026-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z' }) },
  'metrics.events': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', filters: [{ attribute: 'method', condition: 'equals', value: 'password' }] }),
  },
  'actions.get': { b: 'refused', input: (f) => ({ projectId: f.a.looseProject }) },
  'actions.set': {
    b: 'refused',
    input: (f) => ({
      projectId: f.a.looseProject,
      hooks: [{ flow: 'verification', timing: 'before', method: null, url: 'http://127.0.0.1:9/matrix', httpMethod: 'POST', body: '', auth: { type: 'none' }, canInterrupt: false, ignoreResponse: false }],
    }),
  },
  'actions.log': { b: 'refused', input: (f) => ({ projectId: f.a.looseProject }) },
  'eventStreams.list': { b: 'refused', input: (f) => ({ projectId: f.a.looseProject }) },
  'eventStreams.create': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, type: 'sns', topic_arn: 'arn:aws:sns:us-east-1:123456789012:matrix', role_arn: 'arn:aws:iam::123456789012:role/matrix' }),
  },
  'eventStreams.set': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, streamId: f.a.eventStream, status: 'paused' }),
    attempts: (f) => [
      { projectId: f.a.looseProject, streamId: f.a.eventStream, status: 'paused' },
      { projectId: f.b.project, streamId: f.a.eventStream, status: 'paused' },
    ],
  },
  'eventStreams.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, streamId: f.a.doomedEventStream }),
    attempts: (f) => [
      { projectId: f.a.looseProject, streamId: f.a.doomedEventStream },
      { projectId: f.b.project, streamId: f.a.doomedEventStream },
    ],
  },
  'eventStreams.deliveries': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, streamId: f.a.eventStream }),
    attempts: (f) => [
      { projectId: f.a.looseProject, streamId: f.a.eventStream },
      { projectId: f.b.project, streamId: f.a.eventStream },
    ],
  },
  'eventStreams.replay': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.looseProject, streamId: f.a.eventStream, deliveryId: f.a.streamDelivery }),
    attempts: (f) => [
      { projectId: f.a.looseProject, streamId: f.a.eventStream, deliveryId: f.a.streamDelivery },
      { projectId: f.b.project, streamId: f.a.eventStream, deliveryId: f.a.streamDelivery },
    ],
  },
  'eventStreams.sendTest': { b: 'refused', input: (f) => ({ projectId: f.a.looseProject, streamId: f.a.eventStream }) },
  'oauth2Config.setLifespans': { b: 'refused', input: (f) => ({ projectId: f.a.project, access_token: '2h' }) },
  'oauth2Config.setStrategies': { b: 'refused', input: (f) => ({ projectId: f.a.project, access_token: 'opaque' }) },
  'oauth2Config.setUrls': { b: 'refused', input: (f) => ({ projectId: f.a.project, login: 'https://matrix.example.com/login' }) },
  'oauth2Config.setConfigure': { b: 'refused', input: (f) => ({ projectId: f.a.project, pkce_enforced: false }) },
  'oauth2Config.setOpenId': { b: 'refused', input: (f) => ({ projectId: f.a.project, subject_types: ['public'] }) },
  'oauth2Config.setCookies': { b: 'refused', input: (f) => ({ projectId: f.a.project, same_site_mode: 'Lax' }) },
  'projectConfig.get': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'projectConfig.setAuthentication': { b: 'refused', input: (f) => ({ projectId: f.a.project, min_password_length: 10 }) },
  'projectConfig.setPasswordless': { b: 'refused', input: (f) => ({ projectId: f.a.project, code_passwordless_enabled: false }) },
  'projectConfig.setMfa': { b: 'refused', input: (f) => ({ projectId: f.a.project, totp_issuer: 'Matrix' }) },
  'projectConfig.setRecovery': { b: 'refused', input: (f) => ({ projectId: f.a.project, lifespan: '2h' }) },
  'projectConfig.setVerification': { b: 'refused', input: (f) => ({ projectId: f.a.project, lifespan: '2h' }) },
  'projectConfig.setSessions': { b: 'refused', input: (f) => ({ projectId: f.a.project, lifespan: '48h' }) },
  'projectConfig.setBrowserRedirects': { b: 'refused', input: (f) => ({ projectId: f.a.project, allowed_return_urls: ['https://matrix.example.com/'] }) },
  'projectConfig.setUi': { b: 'refused', input: (f) => ({ projectId: f.a.project, login: 'https://matrix.example.com/login' }) },
  'oauth2Clients.create': { b: 'refused', input: (f) => ({ projectId: f.a.project, client: { client_name: 'Matrix client' } }) },
  'oauth2Clients.set': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, clientId: f.a.oauth2Client, client: { client_name: 'Matrix set' } }),
    attempts: (f) => [
      { projectId: f.a.project, clientId: f.a.oauth2Client, client: { client_name: 'Matrix set' } },
      { projectId: f.b.project, clientId: f.a.oauth2Client, client: { client_name: 'Matrix set' } },
    ],
  },
  'oauth2Clients.patch': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, clientId: f.a.oauth2Client, patch: [{ op: 'replace', path: '/client_name', value: 'Matrix patch' }] }),
    attempts: (f) => [
      { projectId: f.a.project, clientId: f.a.oauth2Client, patch: [{ op: 'replace', path: '/client_name', value: 'Matrix patch' }] },
      { projectId: f.b.project, clientId: f.a.oauth2Client, patch: [{ op: 'replace', path: '/client_name', value: 'Matrix patch' }] },
    ],
  },
  'oauth2Clients.rotateSecret': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, clientId: f.a.oauth2Client }),
    attempts: (f) => [
      { projectId: f.a.project, clientId: f.a.oauth2Client },
      { projectId: f.b.project, clientId: f.a.oauth2Client },
    ],
  },
  'oauth2Clients.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, clientId: f.a.doomedOAuth2Client }),
    attempts: (f) => [
      { projectId: f.a.project, clientId: f.a.doomedOAuth2Client },
      { projectId: f.b.project, clientId: f.a.doomedOAuth2Client },
    ],
  },

  // Social sign-in providers of A's project: the fixture adds 'matrix-fixture' and 'matrix-doomed'.
  'socialProviders.list': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'socialProviders.get': { b: 'refused', input: (f) => ({ projectId: f.a.project, id: 'matrix-fixture' }) },
  'socialProviders.set': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, id: 'matrix-fixture', provider: 'generic', client_id: 'matrix-edited', issuer_url: 'https://idp.example.com' }),
  },
  'socialProviders.delete': { b: 'refused', input: (f) => ({ projectId: f.a.project, id: 'matrix-doomed' }) },
  'socialProviders.setEnabled': { b: 'refused', input: (f) => ({ projectId: f.a.project, enabled: true }) },
  'samlProviders.list': { b: 'refused', input: (f) => ({ projectId: f.a.samlProject }) },
  'samlProviders.get': { b: 'refused', input: (f) => ({ projectId: f.a.samlProject, id: 'matrix-fixture' }) },
  'samlProviders.set': { b: 'refused', input: (f) => ({ projectId: f.a.samlProject, id: 'matrix-fixture', label: 'Edited', attributes_map: { email: 'mail' } }) },
  'samlProviders.delete': { b: 'refused', input: (f) => ({ projectId: f.a.samlProject, id: 'matrix-doomed' }) },
  'samlProviders.parseMetadata': { b: 'refused', input: (f) => ({ projectId: f.a.samlProject, xml: f.a.samlMetadata }) },
  'socialProviders.catalogue': {
    b: 'own',
    input: () => undefined,
    check: (answer) => expect((answer as { kind: string }[]).map((k) => k.kind)).toContain('generic'),
  },
  'oauth2Clients.setLifespans': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, clientId: f.a.oauth2Client, lifespans: { client_credentials_grant_access_token_lifespan: '30m' } }),
    attempts: (f) => [
      { projectId: f.a.project, clientId: f.a.oauth2Client, lifespans: {} },
      { projectId: f.b.project, clientId: f.a.oauth2Client, lifespans: {} },
    ],
  },
  'oauth2Clients.deleteRotatedSecrets': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, clientId: f.a.oauth2Client }),
    attempts: (f) => [
      { projectId: f.a.project, clientId: f.a.oauth2Client },
      { projectId: f.b.project, clientId: f.a.oauth2Client },
    ],
  },
  // The console's own consent page: B never reaches A's consent requests (not found, as if there were none).
  'oauth2Consent.get': { b: 'refused', input: (f) => ({ challenge: f.a.consentChallenge }) },
  'oauth2Consent.accept': { b: 'refused', input: (f) => ({ challenge: f.a.consentToAccept, scopes: ['openid'], remember: false }) },
  'oauth2Consent.reject': { b: 'refused', input: (f) => ({ challenge: f.a.consentToReject }) },
  'oauth2Sessions.listConsent': { b: 'refused', input: (f) => ({ projectId: f.a.project, subject: 'matrix-subject' }) },
  'oauth2Sessions.revokeConsent': { b: 'refused', input: (f) => ({ projectId: f.a.project, subject: 'matrix-subject' }) },
  'oauth2Sessions.revokeLogin': { b: 'refused', input: (f) => ({ projectId: f.a.project, subject: 'matrix-subject' }) },
  'oauth2Keys.get': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, set: 'matrix-read' }),
    attempts: (f) => [
      { projectId: f.a.project, set: 'matrix-read' },
      { projectId: f.a.project, set: 'hydra.openid.id-token' },
    ],
  },
  'oauth2Keys.create': { b: 'refused', input: (f) => ({ projectId: f.a.project, set: 'matrix-made', alg: 'ES256', use: 'sig' }) },
  'oauth2Keys.deleteKey': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, set: 'matrix-doomed-key', kid: 'doomed-key' }),
    attempts: (f) => [
      { projectId: f.a.project, set: 'matrix-doomed-key', kid: 'doomed-key' },
      { projectId: f.b.project, set: 'matrix-doomed-key', kid: 'doomed-key' },
    ],
  },
  'oauth2Keys.deleteSet': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, set: 'matrix-doomed-set' }),
    attempts: (f) => [
      { projectId: f.a.project, set: 'matrix-doomed-set' },
      { projectId: f.b.project, set: 'matrix-doomed-set' },
    ],
  },
  'oauth2TrustedIssuers.list': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'oauth2TrustedIssuers.get': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, id: f.a.trustedIssuer }),
    attempts: (f) => [
      { projectId: f.a.project, id: f.a.trustedIssuer },
      { projectId: f.b.project, id: f.a.trustedIssuer },
    ],
  },
  'oauth2TrustedIssuers.trust': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, issuer: matrixIssuer('https://matrix-made.example.com', 'made-key') }),
  },
  'oauth2TrustedIssuers.delete': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, id: f.a.doomedTrustedIssuer }),
    attempts: (f) => [
      { projectId: f.a.project, id: f.a.doomedTrustedIssuer },
      { projectId: f.b.project, id: f.a.doomedTrustedIssuer },
    ],
  },

  'messaging.templates': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'messaging.getTemplate': { b: 'refused', input: (f) => ({ projectId: f.a.project, template: 'recovery_code', variant: 'valid' }) },
  'messaging.setTemplate': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, template: 'login_code', variant: 'valid', subject: 'Matrix code', html: '<p>{{ .LoginCode }}</p>', plaintext: '{{ .LoginCode }}' }),
  },
  'messaging.resetTemplate': { b: 'refused', input: (f) => ({ projectId: f.a.project, template: 'login_code', variant: 'valid' }) },
  'messaging.messages': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project }),
    attempts: (f) => [{ projectId: f.a.project }, { projectId: f.a.project, status: 'sent' }, { projectId: f.a.project, recipient: 'matrix@example.com' }],
  },
  'messaging.message': { b: 'refused', input: (f) => ({ projectId: f.a.project, id: f.a.courierMessage }) },
  'messaging.testSend': { b: 'refused', input: (f) => ({ projectId: f.a.project, kind: 'stub', recipient: 'matrix-test@example.com', channel: 'email' }) },
  'messaging.emailConfig': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'messaging.setEmailConfig': { b: 'refused', input: (f) => ({ projectId: f.a.project, fromName: 'Matrix' }) },
  'messaging.smsConfig': { b: 'refused', input: (f) => ({ projectId: f.a.project }) },
  'messaging.setSmsConfig': {
    b: 'refused',
    input: (f) => ({ projectId: f.a.project, enabled: false }),
    attempts: (f) => [
      { projectId: f.a.project, enabled: false },
      { projectId: f.a.project, enabled: true, url: 'http://127.0.0.1:1/sms', authType: 'api_key', apiKeyName: 'X-Api-Key', secret: 'b-key' },
    ],
  },

  'permissions.project': { b: 'denied', input: (f) => ({ projectId: f.a.project, permissions: PROJECT_PERMISSIONS }) },
  'permissions.workspace': { b: 'denied', input: (f) => ({ workspaceId: f.a.workspace, permissions: WORKSPACE_PERMISSIONS }) },
};
