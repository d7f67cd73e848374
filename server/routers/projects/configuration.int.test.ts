import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../../test-support/bff';
import { registerUser, type TestUser } from '../../test-support/users';

/* A project's configuration as a whole: created in its full form, read, replaced, patched, and replaced in its normalized form. */

let stack: TestStack;
let deps: AppDeps;
let owner: TestUser;
let stranger: TestUser;
const as = (user: TestUser) => callerFor(deps, user.cookie);

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  [owner, stranger] = await Promise.all([registerUser(stack.url, { name: 'Owner' }), registerUser(stack.url, { name: 'Stranger' })]);
});
afterAll(async () => {
  await stack?.close();
});

describe('the configuration of a project', () => {
  it('creates a project in its full form, in the caller’s workspace only', async () => {
    const workspace = await as(owner).workspaces.create({ name: 'Plain home' });
    const project = await as(owner).projects.createPlain({ name: 'Plain', environment: 'dev', workspaceId: workspace.id });
    expect(project).toMatchObject({ name: 'Plain', environment: 'dev', workspace_id: workspace.id });
    expect(project.services).toHaveProperty('identity');
    expect((await as(owner).projects.list()).map((p) => p.id)).toContain(project.id);

    const refused = await rejection(as(stranger).projects.createPlain({ name: 'Planted', environment: 'dev', workspaceId: workspace.id }));
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain(refused.code);
    expect((await as(owner).workspaces.listProjects({ workspaceId: workspace.id })).map((p) => p.name)).toEqual(['Plain']);
  });

  it('replaces the whole configuration from the revision it was read at, and refuses a stale one', async () => {
    const { id: projectId } = await as(owner).projects.create({ name: 'Whole', environment: 'dev' });
    const read = await as(owner).projects.configuration({ projectId });
    const services = read.services as Record<string, { config: Record<string, unknown> }>;
    const answer = await as(owner).projects.replace({
      projectId,
      revisionId: read.revision_id,
      configuration: { name: 'Whole, replaced', services, cors_public: { enabled: true, origins: ['https://app.example.com'] } },
    });
    expect(answer.project).toMatchObject({ name: 'Whole, replaced', cors_public: { enabled: true, origins: ['https://app.example.com'] } });
    const after = await as(owner).projects.configuration({ projectId });
    expect(after.services).toEqual(services);
    expect(after.revision_id).not.toBe(read.revision_id);

    // Started from the revision before: refused, nothing changes.
    const stale = await rejection(as(owner).projects.replace({ projectId, revisionId: read.revision_id, configuration: { name: 'Overwritten', services } }));
    expect(stale.code).toBe('CONFLICT');
    expect(stale.message).toMatch(/changed elsewhere/);
    expect((await as(owner).projects.get({ projectId })).current_revision.name).toBe('Whole, replaced');

    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(as(stranger).projects.configuration({ projectId }))).code);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(as(stranger).projects.replace({ projectId, configuration: { name: 'Hijacked', services } }))).code);
    expect((await as(owner).projects.get({ projectId })).current_revision.name).toBe('Whole, replaced');
  });

  it('patches only the paths named, and says what to fix for a path it cannot patch', async () => {
    const { id: projectId } = await as(owner).projects.create({ name: 'Patched', environment: 'dev' });
    const before = await as(owner).projects.configuration({ projectId });
    const answer = await as(owner).projects.patch({ projectId, patch: [{ op: 'replace', path: '/cors_admin', value: { enabled: true, origins: ['https://admin.example.com'] } }] });
    expect(answer.project).toMatchObject({ name: 'Patched', cors_admin: { enabled: true, origins: ['https://admin.example.com'] } });
    expect(answer.project.services).toEqual(before.services);

    const outside = await rejection(as(owner).projects.patch({ projectId, patch: [{ op: 'replace', path: '/slug', value: 'mine' }] }));
    expect(outside.code).toBe('BAD_REQUEST');
    expect(outside.message).toMatch(/cannot be patched/);
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(as(stranger).projects.patch({ projectId, patch: [{ op: 'replace', path: '/name', value: 'Hijacked' }] }))).code);
    expect((await as(owner).projects.configuration({ projectId })).name).toBe('Patched');
  });

  it('replaces the normalized revision, keeping read-only fields out of it', async () => {
    const created = await as(owner).projects.create({ name: 'Flat', environment: 'dev' });
    const projectId = created.id;
    const revision = created.current_revision;
    const answer = await as(owner).projects.replaceNormalized({
      projectId,
      revisionId: revision.id!,
      revision: { ...revision, name: 'Flat, replaced', id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(answer.current_revision.name).toBe('Flat, replaced');
    expect(answer.current_revision.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(answer.current_revision.id).not.toBe(revision.id);

    const stale = await rejection(as(owner).projects.replaceNormalized({ projectId, revisionId: revision.id!, revision: { name: 'Old' } }));
    expect(stale.code).toBe('CONFLICT');
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(as(stranger).projects.replaceNormalized({ projectId, revision: { name: 'Hijacked' } }))).code);
    expect((await as(owner).projects.get({ projectId })).current_revision.name).toBe('Flat, replaced');
  });

  it('reads the identity meta-schema every schema is checked against', async () => {
    const meta = await as(stranger).schemas.metaSchema();
    expect(meta).toHaveProperty('$schema');
    expect(JSON.stringify(meta)).toContain('ory.sh/kratos');
  });
});
