import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import { startConsoleConsent } from '../test-support/console-oauth2';
import { ACCESS_MATRIX, matrixIssuer, type MatrixFixture } from '../test-support/access-matrix';
import { badInputs } from '../test-support/bad-input';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { emailTrait, identitySchemaOf } from '../test-support/identity-schemas';
import { eq } from 'drizzle-orm';
import { setPlan } from '../../localstack/billing/quota';
import { startSamlTestIdp } from '../../localstack/saml-idp/idp';
import { memberInvites, workspaceMembers } from '../../localstack/project/schema';
import { courierMessages } from '../../localstack/identity/schema';
import { verifyEmail } from '../test-support/verify-email';
import { loginUser, registerUser, signUpToProject } from '../test-support/users';
import { appRouter } from './_app';
import { DOCUMENTS_AND_FOLDERS } from '../../shared/permissions/templates';

/** The sweeps below call every procedure of the router, a few hundred calls; on a loaded 2-core machine past the default 30 s. */
const SWEEP_TIMEOUT = 180_000;

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  inputs: z.ZodType[];
  output?: unknown;
}

/** Every procedure of appRouter by path: the list a new procedure joins by being added to a router. */
const PROCEDURES: Record<string, ProcedureDef> = Object.fromEntries(
  Object.entries(appRouter._def.procedures).map(([path, procedure]) => [path, (procedure as unknown as { _def: ProcedureDef })._def]),
);

type Caller = ReturnType<typeof callerFor>;
const call = (caller: Caller, path: string, input: unknown): Promise<unknown> => {
  const [area, name] = path.split('.') as [string, string];
  return (caller as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[area]![name]!(input);
};

async function rejection(promise: Promise<unknown>): Promise<TRPCError | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => {
      expect(error).toBeInstanceOf(TRPCError);
      return error as TRPCError;
    },
  );
}

let stack: TestStack;
let deps: AppDeps;
let a: Caller;
let b: Caller;
let fixture: MatrixFixture;

/** What a user can see of their own objects: any write shows up here. */
async function snapshot(caller: Caller) {
  const projects = await caller.projects.list();
  const details = await Promise.all(projects.map((p) => caller.projects.get({ projectId: p.id })));
  const workspaces = (await caller.workspaces.list()).workspaces;
  const active = await caller.projects.getActive().catch((error: unknown) => (error as TRPCError).code);
  return {
    projects: details
      .map((p) => ({ id: p.id, name: p.current_revision.name, environment: p.environment, workspace: p.workspace_id, updated: p.updated_at }))
      .sort((x, y) => x.id.localeCompare(y.id)),
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, updated: w.updated_at })).sort((x, y) => x.id.localeCompare(y.id)),
    active,
  };
}

/** The console's own traits (email and name), as a managed schema of A's project. */
const FIXTURE_SCHEMA = identitySchemaOf({ email: emailTrait(), name: { type: 'string' } }, ['email']);

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [userA, userB] = await Promise.all([registerUser(stack.url, { name: 'Owner A' }), registerUser(stack.url, { name: 'Outsider B' })]);
  // Invites are answered by a verified address (or the link's token).
  await verifyEmail(stack.url, userA);
  a = callerFor(deps, userA.cookie);
  b = callerFor(deps, userB.cookie);
  const aWorkspace = (await a.workspaces.create({ name: 'Private' })).id;
  const bWorkspace = (await b.workspaces.create({ name: 'Mine' })).id;
  await a.billing.changePlan({ workspaceId: aWorkspace, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
  fixture = {
    a: {
      identityId: userA.identityId,
      email: userA.email,
      consoleSession: '',
      workspace: aWorkspace,
      project: (await a.projects.create({ name: 'Secret', environment: 'prod', workspaceId: aWorkspace })).id,
      looseProject: (await a.projects.create({ name: 'Loose secret', environment: 'dev' })).id,
      doomedProject: (await a.projects.create({ name: 'Doomed', environment: 'dev', workspaceId: aWorkspace })).id,
      // Filled in below, once the team fixtures exist.
      memberToRemove: '',
      memberForRole: '',
      inviteToCancel: '',
      inviteToRemove: '',
      inviteToAccept: '',
      inviteToDecline: '',
      apiKey: '',
      doomedWorkspace: '',
      workspaceToLeave: '',
      subscribedProject: '',
      inviteToLink: '',
      inviteToLinkToken: '',
      endUser: '',
      endUserSession: '',
      doomedEndUser: '',
      credentialEndUser: '',
      courierMessage: '',
      identitySchema: '',
      oauth2Client: '',
      doomedOAuth2Client: '',
      customDomain: '',
      eventStream: '',
      doomedEventStream: '',
      streamDelivery: '',
      doomedCustomDomain: '',
      brandingTheme: '',
      doomedBrandingTheme: '',
      trustedIssuer: '',
      doomedTrustedIssuer: '',
      consentChallenge: '',
      consentToAccept: '',
      consentToReject: '',
      organizationProject: '',
      organization: '',
      doomedOrganization: '',
      onboardingLink: '',
      doomedOnboardingLink: '',
      oldRevision: '',
      currentRevision: '',
      samlProject: '',
      samlMetadata: '',
      importProject: '',
      importRevision: '',
      bundleProject: '',
      bundleRevision: '',
      auditEvent: '',
    },
    b: {
      identityId: userB.identityId,
      email: userB.email,
      workspace: bWorkspace,
      project: (await b.projects.create({ name: 'Mine too', environment: 'dev', workspaceId: bWorkspace })).id,
    },
  };
  await a.projects.setActive({ projectId: fixture.a.project });

  // Team fixtures: both workspaces on Production (five seats), two developers in A's workspace, invites A
  // may cancel and remove, invites to A that A may accept and decline, and a key of A's project.
  await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: aWorkspace }, 'Production@0');
  await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: bWorkspace }, 'Production@0');
  const developers = await Promise.all([registerUser(stack.url, { name: 'Dev C' }), registerUser(stack.url, { name: 'Dev D' })]);
  for (const developer of developers) {
    await verifyEmail(stack.url, developer);
    const { created_invite } = await a.invites.create({ workspaceId: aWorkspace, email: developer.email, role: 'developer' });
    await callerFor(deps, developer.cookie).invites.accept({ inviteId: created_invite.id });
  }
  const invite = async (by: Caller, workspaceId: string, email: string) =>
    (await by.invites.create({ workspaceId, email, role: 'developer' })).created_invite.id;
  Object.assign(fixture.a, {
    memberToRemove: developers[0]!.identityId,
    memberForRole: developers[1]!.identityId,
    inviteToCancel: await invite(a, aWorkspace, 'cancel-me@example.com'),
    inviteToRemove: await invite(a, aWorkspace, 'remove-me@example.com'),
    inviteToAccept: await invite(b, bWorkspace, userA.email),
    inviteToDecline: await invite(b, bWorkspace, userA.email.replace('@', '+other@')),
    apiKey: (await a.apiKeys.create({ projectId: fixture.a.project, name: 'Fixture key' })).id,
    subscribedProject: (await a.projects.create({ name: 'Subscribed', environment: 'dev' })).id,
  });
  // An empty workspace A may delete, and one A shares with a second owner (a developer of A's, set in the store) and may leave.
  fixture.a.doomedWorkspace = (await a.workspaces.create({ name: 'Doomed workspace' })).id;
  fixture.a.workspaceToLeave = (await a.workspaces.create({ name: 'Shared' })).id;
  await stack.stack.db.orm.insert(workspaceMembers).values({ workspace_id: fixture.a.workspaceToLeave, identity_id: developers[1]!.identityId, role: 'owner', created_at: new Date() });
  // An invite from B to an address A does not use; A attaches it with the token of its link.
  fixture.a.inviteToLink = await invite(b, bWorkspace, 'a-second-address@example.com');
  const [mail] = await stack.stack.db.orm.select().from(courierMessages).where(eq(courierMessages.recipient, 'a-second-address@example.com'));
  fixture.a.inviteToLinkToken = new URL(/https?:\/\/\S+/.exec(mail!.body)![0]).searchParams.get('token')!;
  await a.billing.changePlan({ projectId: fixture.a.subscribedProject, plan: 'Production@0', interval: 'monthly', currency: 'eur' });
  // A second sign-in of A's own console account (another browser), a session A may end from /settings/advanced.
  const secondSignIn = await loginUser(stack.url, userA.email, userA.password);
  fixture.a.consoleSession = (await callerFor(deps, secondSignIn.cookie).auth.session()).session!.id;
  // End users of A's project, signed up through its own API flows.
  const slug = (await a.projects.get({ projectId: fixture.a.project })).slug;
  const endUser = await signUpToProject(stack.url, slug, 'end-user@example.com');
  Object.assign(fixture.a, {
    endUser: endUser.identityId,
    endUserSession: endUser.sessionId,
    doomedEndUser: (await signUpToProject(stack.url, slug, 'doomed-end-user@example.com')).identityId,
    credentialEndUser: (await signUpToProject(stack.url, slug, 'credential-end-user@example.com')).identityId,
    courierMessage: (await a.messaging.testSend({ projectId: fixture.a.project, kind: 'stub', recipient: 'fixture-mail@example.com', channel: 'email' })).id,
  });
  // A managed identity schema of A's project that A's end users match (setDefault makes it the default).
  fixture.a.identitySchema = (await a.schemas.create({ projectId: fixture.a.project, name: 'Fixture schema', schema: JSON.stringify(FIXTURE_SCHEMA) })).id;
  // OAuth2 clients of A's project: one to read and edit, one to delete.
  fixture.a.oauth2Client = (await a.oauth2Clients.create({ projectId: fixture.a.project, client: { client_name: 'Fixture client' } })).client_id!;
  fixture.a.doomedOAuth2Client = (await a.oauth2Clients.create({ projectId: fixture.a.project, client: { client_name: 'Doomed client' } })).client_id!;
  // Social sign-in providers of A's project: one to read and edit, one to delete.
  for (const id of ['matrix-fixture', 'matrix-doomed']) {
    await a.socialProviders.set({ projectId: fixture.a.project, id, provider: 'generic', client_id: id, client_secret: 'fixture-secret', issuer_url: 'https://idp.example.com', create: true });
  }
  // Key sets of A's project (one to read, one to lose a key, one to delete) and trusted issuers (to read, to delete).
  const [trusted, doomedTrust] = await Promise.all([
    a.oauth2TrustedIssuers.trust({ projectId: fixture.a.project, issuer: matrixIssuer('https://matrix-read.example.com', 'read-key') }),
    a.oauth2TrustedIssuers.trust({ projectId: fixture.a.project, issuer: matrixIssuer('https://matrix-doomed.example.com', 'doomed-key') }),
    ...([['matrix-read', 'read-key'], ['matrix-doomed-key', 'doomed-key'], ['matrix-doomed-set', 'doomed-set-key']] as const).map(([set, kid]) =>
      a.oauth2Keys.create({ projectId: fixture.a.project, set, alg: 'ES256', use: 'sig', kid }),
    ),
  ]);
  fixture.a.trustedIssuer = (trusted as { id?: string }).id!;
  fixture.a.doomedTrustedIssuer = (doomedTrust as { id?: string }).id!;
  // Consent requests of the console's own OAuth2 server for A: a command-line tool asking three times.
  const consents = await Promise.all([0, 1, 2].map(() => startConsoleConsent(stack.url, userA.cookie)));
  [fixture.a.consentChallenge, fixture.a.consentToAccept, fixture.a.consentToReject] = consents.map((c) => c.challenge) as [string, string, string];
  // Permission rules of A's project, and a relationship the delete-by-query row deletes.
  // Custom domains of A's project (its workspace is on Production): one to edit, one to remove.
  fixture.a.customDomain = (await a.domains.create({ projectId: fixture.a.project, hostname: 'matrix.example.test' })).id!;
  fixture.a.doomedCustomDomain = (await a.domains.create({ projectId: fixture.a.project, hostname: 'doomed.example.test' })).id!;
  // Branding themes of A's project (Production includes five): one to edit and activate, one to delete.
  fixture.a.brandingTheme = (await a.branding.createTheme({ projectId: fixture.a.project, name: 'Matrix theme', primary_color: '#3b31c7' })).id;
  fixture.a.doomedBrandingTheme = (await a.branding.createTheme({ projectId: fixture.a.project, name: 'Doomed theme' })).id;
  // Event streams of A's loose project, on a plan with unlimited streams: a test send leaves a delivery to replay.
  const planned = await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: fixture.a.looseProject, plan: 'enterprise' }) });
  expect(planned.status).toBe(204);
  const [stream, doomedStream] = await Promise.all(
    ['http://127.0.0.1:9/matrix', 'http://127.0.0.1:9/doomed'].map((https_endpoint) => a.eventStreams.create({ projectId: fixture.a.looseProject, type: 'https', https_endpoint })),
  );
  fixture.a.eventStream = stream!.id;
  fixture.a.doomedEventStream = doomedStream!.id;
  fixture.a.streamDelivery = (await a.eventStreams.sendTest({ projectId: fixture.a.looseProject, streamId: stream!.id })).delivery_id;
  // SAML providers need saml_sp: a project of A's on its own Enterprise plan, with one provider to read and edit and one to delete.
  fixture.a.samlProject = (await a.projects.create({ name: 'SAML', environment: 'dev' })).id;
  await setPlan(stack.stack.db, { kind: 'project', project: { id: fixture.a.samlProject, workspace_id: null } }, 'enterprise');
  const samlIdp = await startSamlTestIdp();
  fixture.a.samlMetadata = samlIdp.metadataXml;
  await samlIdp.close();
  for (const id of ['matrix-fixture', 'matrix-doomed']) {
    await a.samlProviders.set({ projectId: fixture.a.samlProject, id, idp_metadata_xml: fixture.a.samlMetadata, create: true });
  }
  // Organizations need Growth: a project of A's on its own Growth plan, two organizations and two onboarding links.
  fixture.a.organizationProject = (await a.projects.create({ name: 'Organizations', environment: 'dev' })).id;
  await setPlan(stack.stack.db, { kind: 'project', project: { id: fixture.a.organizationProject, workspace_id: null } }, 'Growth@0');
  // Its configuration's history: the revision it was created with, and the current one after a rename.
  const revisionOf = async (projectId: string) => String((await a.projects.get({ projectId })).current_revision.id);
  fixture.a.oldRevision = await revisionOf(fixture.a.organizationProject);
  await a.projects.update({ projectId: fixture.a.organizationProject, name: 'Organizations and history' });
  fixture.a.currentRevision = await revisionOf(fixture.a.organizationProject);
  // A project of A's that an imported configuration file replaces, and its current revision.
  fixture.a.importProject = (await a.projects.create({ name: 'Import target', environment: 'dev' })).id;
  fixture.a.importRevision = await revisionOf(fixture.a.importProject);
  fixture.a.bundleProject = (await a.projects.create({ name: 'Bundle target', environment: 'dev' })).id;
  fixture.a.bundleRevision = await revisionOf(fixture.a.bundleProject);
  fixture.a.organization = (await a.organizations.create({ projectId: fixture.a.organizationProject, label: 'Matrix org', domains: ['matrix-org.example.test'] })).id;
  fixture.a.doomedOrganization = (await a.organizations.create({ projectId: fixture.a.organizationProject, label: 'Doomed org' })).id;
  for (const key of ['onboardingLink', 'doomedOnboardingLink'] as const) {
    fixture.a[key] = (await a.onboardingLinks.create({ projectId: fixture.a.organizationProject, organizationId: fixture.a.organization })).id;
  }
  await a.permissionRules.set({ projectId: fixture.a.project, opl: DOCUMENTS_AND_FOLDERS });
  await a.relationships.create({ projectId: fixture.a.project, namespace: 'File', object: 'matrix-doomed', relation: 'viewers', subject: { id: 'matrix' } });
  // The second invite goes to another address of A's; A attaches it with nothing but their session, so
  // it is linked in the store directly.
  await stack.stack.db.orm.update(memberInvites).set({ invitee_id: userA.identityId }).where(eq(memberInvites.id, fixture.a.inviteToDecline));
  // An event of A's project, in its workspace's log and its own.
  fixture.a.auditEvent = (await a.auditLog.list({ projectId: fixture.a.project })).events[0]!.id;
});

afterAll(async () => {
  await stack?.close();
});

describe('every procedure of appRouter', () => {
  it('has a row in the two-user access matrix, and every row names a procedure that exists', () => {
    expect(Object.keys(PROCEDURES).length).toBeGreaterThan(0);
    expect(Object.keys(PROCEDURES).filter((path) => !(path in ACCESS_MATRIX))).toEqual([]);
    expect(Object.keys(ACCESS_MATRIX).filter((path) => !(path in PROCEDURES))).toEqual([]);
  });

  it('declares its output, and at most one input schema', () => {
    for (const [path, def] of Object.entries(PROCEDURES)) {
      expect(def.output, `${path} declares no .output()`).toBeDefined();
      expect(def.inputs.length, `${path} has ${def.inputs.length} input schemas`).toBeLessThanOrEqual(1);
    }
  });

  it('gives user B nothing of user A’s, and user A what is theirs', { timeout: SWEEP_TIMEOUT }, async () => {
    const before = await snapshot(a);
    for (const [path, row] of Object.entries(ACCESS_MATRIX)) {
      const context = `${path} (${row.b})`;
      if (row.b === 'refused') {
        for (const input of row.attempts?.(fixture) ?? [row.input(fixture)]) {
          const error = await rejection(call(b, path, input));
          expect(error?.code, `${context} ${JSON.stringify(input)}`).toMatch(/^(FORBIDDEN|NOT_FOUND)$/);
        }
      } else if (row.b === 'absent') {
        const ids = row.ids(await call(b, path, row.input(fixture)));
        for (const id of Object.values(fixture.a)) expect(ids, context).not.toContain(id);
      } else if (row.b === 'ownRefusal') {
        for (const input of row.attempts(fixture)) {
          const error = await rejection(call(b, path, input));
          expect(error, `${context} ${JSON.stringify(input)}`).toBeDefined();
          row.check(error!, fixture, 'b', input);
        }
      } else if (row.b === 'denied') {
        const answer = (await call(b, path, row.input(fixture))) as Record<string, boolean>;
        expect(Object.values(answer).length, context).toBeGreaterThan(0);
        expect(Object.values(answer).every((allowed) => allowed === false), context).toBe(true);
      } else {
        row.check(await call(b, path, row.input(fixture)), fixture, 'b');
      }
    }
    expect(await snapshot(a)).toEqual(before);

    for (const [path, row] of Object.entries(ACCESS_MATRIX)) {
      if (row.b === 'ownRefusal') {
        const input = row.input(fixture, 'a');
        const error = await rejection(call(a, path, input));
        expect(error, `${path}: user A was not refused`).toBeDefined();
        row.check(error!, fixture, 'a', input);
        continue;
      }
      const answer = await call(a, path, row.input(fixture)).catch((error: unknown) => {
        throw new Error(`${path}: user A was refused: ${(error as Error).message}`);
      });
      if (row.b === 'absent') expect(row.ids(answer), path).toEqual(expect.arrayContaining(row.aSees(fixture)));
      if (row.b === 'denied') expect(Object.values(answer as Record<string, boolean>).every(Boolean), path).toBe(true);
      if (row.b === 'own') row.check(answer, fixture, 'a');
    }
  });
});

describe('a bad-input run generated from each procedure’s input schema', () => {
  let caller: Caller;
  let hints: Record<string, string>;

  beforeAll(async () => {
    const user = await registerUser(stack.url, { name: 'Fuzzer' });
    caller = callerFor(deps, user.cookie);
    const workspaceId = (await caller.workspaces.create({ name: 'Fuzzed' })).id;
    const projectId = (await caller.projects.create({ name: 'Fuzzed', environment: 'dev', workspaceId })).id;
    await caller.projects.setActive({ projectId });
    hints = { workspaceId, projectId };
  });

  it('answers every bad input with a 4xx, never a 500, and writes nothing', { timeout: SWEEP_TIMEOUT }, async () => {
    const before = await snapshot(caller);
    for (const [path, def] of Object.entries(PROCEDURES)) {
      await fc.assert(
        fc.asyncProperty(badInputs(def.inputs[0], hints), async (input) => {
          const outcome = await call(caller, path, input).then(
            () => 'answered',
            (error: unknown) => error,
          );
          // A procedure without input ignores what it is given; one with input must refuse.
          if (outcome === 'answered' && def.inputs.length === 0) return;
          expect(outcome, `${path} accepted ${JSON.stringify(input)?.slice(0, 200)}`).toBeInstanceOf(TRPCError);
          const status = getHTTPStatusCodeFromError(outcome as TRPCError);
          expect(status, `${path}: ${(outcome as TRPCError).code} for ${JSON.stringify(input)?.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(status).toBeLessThan(500);
        }),
        { numRuns: def.type === 'mutation' ? 12 : 8 },
      );
      expect(await snapshot(caller), `${path} wrote something`).toEqual(before);
    }
  });
});
