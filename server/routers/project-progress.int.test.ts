import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { setPlan } from '../test-support/localstack-data';
import { registerUser, signUpToProject } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let projectId: string;
let slug: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url)).cookie);
  const project = await owner.projects.create({ name: 'Tour', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
  // A plan with seats to invite into (Develop's one seat is the owner's).
  await setPlan(stack.stack.db, { kind: 'project', project: { id: projectId, workspace_id: null } }, 'Production@0');
});

afterAll(async () => {
  await stack?.close();
});

describe('projects.progress', () => {
  it('checks off each step as it really happens, one at a time', async () => {
    expect(await owner.projects.progress({ projectId })).toEqual({ identity: false, signIn: false, oauth2Client: false, teammate: false });

    await owner.identities.create({ projectId, schemaId: 'default', traits: { email: 'first@example.com' } });
    expect(await owner.projects.progress({ projectId })).toEqual({ identity: true, signIn: false, oauth2Client: false, teammate: false });

    await signUpToProject(stack.url, slug, 'signed-up@example.com');
    expect(await owner.projects.progress({ projectId })).toEqual({ identity: true, signIn: true, oauth2Client: false, teammate: false });

    await owner.oauth2Clients.create({ projectId, client: { client_name: 'Shop', redirect_uris: ['https://shop.example.com/cb'] } });
    expect(await owner.projects.progress({ projectId })).toMatchObject({ oauth2Client: true, teammate: false });

    await owner.invites.create({ projectId, email: 'teammate@example.com', role: 'developer' });
    expect(await owner.projects.progress({ projectId })).toEqual({ identity: true, signIn: true, oauth2Client: true, teammate: true });
  });

  it('tells another user nothing of the project', async () => {
    const stranger = callerFor(deps, (await registerUser(stack.url)).cookie);
    const refused = await rejection(stranger.projects.progress({ projectId }));
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(refused.code);
  });

  it('refuses a project id that is not one', async () => {
    const refused = await rejection(owner.projects.progress({ projectId: 'tour' }));
    expect(refused.code).toBe('BAD_REQUEST');
  });
});
