import { Writable } from 'node:stream';
import { Configuration, IdentityApi, WorkspaceApi } from '@ory/client';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaches, createDeps, type AppDeps } from '../deps';
import { createLogger } from '../logger';
import { startLocalStack, type LocalStack } from '../../localstack/index';
import { setPlan } from '../../localstack/billing/quota';
import { callerFor, rejection, TEST_PUBLIC_URL, testConfig } from '../test-support/bff';
import { registerUser } from '../test-support/users';
import { verifyEmail } from '../test-support/verify-email';
import { recordWireAnswer } from '../test-support/wire-recorder';

/** Everything the BFF and the local stack log, at the most talkative level: no secret may appear in it. */
const written: string[] = [];
const logger = createLogger('trace', {}, new Writable({ write: (chunk, _e, done) => (written.push(String(chunk)), done()) }));

let stack: LocalStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let colleague: Caller;
let colleagueEmail: string;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    uiUrl: TEST_PUBLIC_URL,
    passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    logger,
    mailbox: true,
    onAnswer: recordWireAnswer,
  });
  deps = createDeps({ ...testConfig(stack.url), logLevel: 'trace' }, logger, { caches: createCaches() });
  const [o, c] = await Promise.all([registerUser(stack.url, { name: 'Olga Owner' }), registerUser(stack.url, { name: 'Carl Colleague' })]);
  owner = callerFor(deps, o.cookie);
  colleague = callerFor(deps, c.cookie);
  colleagueEmail = c.email;
  await verifyEmail(stack.url, c);
});
afterAll(async () => {
  await stack?.close();
});


const errorId = (error: TRPCError) => (error.cause as { errorId?: string } | undefined)?.errorId;

describe('team and access through the BFF', () => {
  it('refuses a second seat on Develop with quota_exceeded naming the feature, and reads the quota', async () => {
    const workspace = await owner.workspaces.create({ name: 'Small team' });
    expect(await owner.quota.get({ workspaceId: workspace.id, feature: 'collaborator_seats' })).toMatchObject({ included: 1, used: 1, can_use_more: false });
    const error = await rejection(owner.invites.create({ workspaceId: workspace.id, email: colleagueEmail, role: 'developer' }));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toMatch(/Develop plan includes 1 team member, and it is in use \(pending invites count too\)/);
    expect(errorId(error)).toBe('quota_exceeded');
  });

  it('invites a colleague to a project, who accepts and works as a developer refused on owner actions', async () => {
    const workspace = await owner.workspaces.create({ name: 'Product' });
    await setPlan(stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Production@0');
    const project = await owner.projects.create({ name: 'Storefront', environment: 'dev', workspaceId: workspace.id });
    await setPlan(stack.db, { kind: 'project', project: { id: project.id, workspace_id: workspace.id } }, 'Production@0');

    const { created_invite } = await owner.invites.create({ projectId: project.id, email: colleagueEmail, role: 'developer' });
    expect(created_invite).toMatchObject({ status: 'pending', role: 'developer', project_id: project.id });
    expect((await owner.invites.list({ projectId: project.id })).map((i) => i.id)).toContain(created_invite.id);
    // The invitee's list names what they are invited to and by whom; they cannot read either yet.
    expect((await colleague.invites.mine()).find((i) => i.id === created_invite.id)).toMatchObject({ target_name: 'Storefront', owner_name: 'Olga Owner' });
    const mails = (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(colleagueEmail)}&project=`)).json()) as { body: string }[];
    const token = new URL(/https?:\/\/\S+/.exec(mails[0]?.body ?? '')![0]).searchParams.get('token')!;
    expect(await callerFor(deps).invites.getPublic({ inviteId: created_invite.id, token })).toMatchObject({ target_name: 'Storefront', status: 'pending' });
    // Without the link's token, the invite shows nothing: no inviter, invitee or project.
    const wrong = await rejection(callerFor(deps).invites.getPublic({ inviteId: created_invite.id, token: '00000000-0000-4000-8000-000000000000' }));
    expect(wrong.code).toBe('NOT_FOUND');
    expect(JSON.stringify(wrong)).not.toMatch(/Storefront|Olga|@/);

    expect((await colleague.invites.accept({ inviteId: created_invite.id })).status).toBe('accepted');
    expect((await rejection(colleague.invites.decline({ inviteId: created_invite.id }))).code).toBe('CONFLICT');

    const members = await colleague.members.list({ projectId: project.id });
    expect(members.find((m) => m.email === colleagueEmail)).toMatchObject({ role: 'developer', source: 'project' });
    expect(await colleague.permissions.project({ projectId: project.id, permissions: ['backoffice.project.read', 'backoffice.project.delete', 'backoffice.project.owner'] })).toEqual({
      'backoffice.project.read': true,
      'backoffice.project.delete': false,
      'backoffice.project.owner': false,
    });
    for (const attempt of [
      () => colleague.invites.create({ projectId: project.id, email: 'someone@example.com', role: 'developer' }),
      () => colleague.apiKeys.create({ projectId: project.id, name: 'Not mine to make' }),
      () => colleague.projects.delete({ projectId: project.id, confirmName: 'Storefront' }),
      () => colleague.members.setRole({ projectId: project.id, memberId: members.find((m) => m.email === colleagueEmail)!.id, role: 'owner' }),
    ]) {
      expect((await rejection(attempt())).code).toBe('FORBIDDEN');
    }

    // The owner promotes and then removes the colleague; the last owner stays.
    const colleagueId = members.find((m) => m.email === colleagueEmail)!.id;
    expect((await owner.members.setRole({ projectId: project.id, memberId: colleagueId, role: 'owner' })).role).toBe('owner');
    expect(await owner.members.remove({ projectId: project.id, memberId: colleagueId })).toEqual({ ok: true });
    expect((await owner.members.list({ projectId: project.id })).map((m) => m.id)).not.toContain(colleagueId);
  });

  it('creates API keys whose secret works once shown, with @ory/client on both planes, and not after deletion', async () => {
    const workspace = await owner.workspaces.create({ name: 'Keys' });
    const project = await owner.projects.create({ name: 'Keyed', environment: 'dev', workspaceId: workspace.id });
    const slug = (await owner.projects.get({ projectId: project.id })).slug;

    const projectKey = await owner.apiKeys.create({ projectId: project.id, name: 'Importer' });
    const workspaceKey = await owner.apiKeys.create({ workspaceId: workspace.id, name: 'Terraform' });
    expect(projectKey.value).toMatch(/^ory_pat_/);
    expect(workspaceKey.value).toMatch(/^ory_wak_/);
    const listed = [...(await owner.apiKeys.list({ projectId: project.id })), ...(await owner.apiKeys.list({ workspaceId: workspace.id }))];
    expect(listed.map((k) => k.name).sort()).toEqual(['Importer', 'Terraform']);
    expect(JSON.stringify(listed)).not.toContain(projectKey.value);
    expect(JSON.stringify(listed)).not.toContain(workspaceKey.value);
    expect(listed.find((k) => k.name === 'Importer')!.last_characters).toBe(projectKey.value.slice(-4));

    const identities = new IdentityApi(new Configuration({ basePath: `${stack.url}/project-api/${slug}`, accessToken: projectKey.value }));
    expect((await identities.listIdentities()).status).toBe(200);
    const control = new WorkspaceApi(new Configuration({ basePath: stack.url, accessToken: workspaceKey.value }));
    expect((await control.getWorkspace({ workspace: workspace.id })).data.name).toBe('Keys');

    await owner.apiKeys.delete({ projectId: project.id, keyId: projectKey.id });
    await owner.apiKeys.delete({ workspaceId: workspace.id, keyId: workspaceKey.id });
    await expect(identities.listIdentities()).rejects.toMatchObject({ response: { status: 401 } });
    await expect(control.getWorkspace({ workspace: workspace.id })).rejects.toMatchObject({ response: { status: 401 } });

    const log = written.join('');
    expect(log).toMatch(/\/tokens/);
    expect(log).not.toContain(projectKey.value);
    expect(log).not.toContain(workspaceKey.value);
  });

  it('refuses input that names both or neither of a project and a workspace, saying what to send', async () => {
    const both = await rejection(owner.members.list({ projectId: crypto.randomUUID(), workspaceId: crypto.randomUUID() } as never));
    expect(both.code).toBe('BAD_REQUEST');
    const neither = await rejection(owner.apiKeys.list({} as never));
    expect(neither.code).toBe('BAD_REQUEST');
    expect(neither.message).toMatch(/projectId|workspaceId/);
  });
});
