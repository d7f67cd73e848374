import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let caller: ReturnType<typeof callerFor>;
let projectId: string;

beforeAll(async () => {
  stack = await startTestStack();
  caller = callerFor(testDeps(stack.url), (await registerUser(stack.url, {})).cookie);
  projectId = (await caller.projects.create({ name: 'Social', environment: 'dev' })).id;
});

afterAll(async () => {
  await stack?.close();
});

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: unknown) => (e instanceof TRPCError ? e.code : String(e)));

describe('socialProviders', () => {
  it('adds, reads, edits and deletes providers in the project config, never answering the secret', async () => {
    expect(await caller.socialProviders.list({ projectId })).toMatchObject({ enabled: true, providers: [] });
    const added = await caller.socialProviders.set({
      projectId,
      id: 'acme',
      provider: 'generic',
      label: 'Acme',
      client_id: 'acme-client',
      client_secret: 'acme-secret',
      issuer_url: 'https://idp.example.com',
      create: true,
    });
    expect(added).toMatchObject({ id: 'acme', provider: 'generic', client_id: 'acme-client', client_secret_set: true, scope: ['openid', 'email', 'profile'] });
    expect(JSON.stringify(added)).not.toContain('acme-secret');

    // The config holds Ory's shape, secret included, and a field the console does not show survives an edit.
    await caller.projects.patch({
      projectId,
      patch: [{ op: 'add', path: '/services/identity/config/selfservice/methods/oidc/config/providers/0/requested_claims', value: { id_token: { email: null } } }],
    });
    const edited = await caller.socialProviders.set({ projectId, id: 'acme', provider: 'generic', client_id: 'acme-client-2', issuer_url: 'https://idp.example.com' });
    expect(edited.client_id).toBe('acme-client-2');
    const config = await caller.projects.configuration({ projectId });
    const stored = (config as any).services.identity.config.selfservice.methods.oidc.config.providers[0];
    expect(stored).toMatchObject({ client_secret: 'acme-secret', requested_claims: { id_token: { email: null } }, client_id: 'acme-client-2' });

    expect(await codeOf(caller.socialProviders.set({ projectId, id: 'acme', provider: 'generic', client_id: 'x', client_secret: 'y', issuer_url: 'https://a.example', create: true }))).toBe('CONFLICT');
    expect(await codeOf(caller.socialProviders.set({ projectId, id: 'acme', provider: 'generic', client_id: 'x' }))).toBe('BAD_REQUEST');
    expect(await codeOf(caller.socialProviders.get({ projectId, id: 'nobody' }))).toBe('NOT_FOUND');

    expect((await caller.socialProviders.setEnabled({ projectId, enabled: false })).enabled).toBe(false);
    expect(await caller.socialProviders.delete({ projectId, id: 'acme' })).toEqual({ ok: true });
    expect((await caller.socialProviders.list({ projectId })).providers).toEqual([]);
    expect(await codeOf(caller.socialProviders.delete({ projectId, id: 'acme' }))).toBe('NOT_FOUND');
  });

  it("ties a provider to an organization and unties it, and refuses an organization id that is no UUID", async () => {
    const organizationId = '0b0b0b0b-0000-4000-8000-000000000001';
    const base = { projectId, id: 'corp', provider: 'generic' as const, client_id: 'corp', issuer_url: 'https://idp.example.com' };
    expect((await caller.socialProviders.set({ ...base, client_secret: 's', organization_id: organizationId, create: true })).organization_id).toBe(organizationId);
    expect((await caller.socialProviders.set({ ...base, organization_id: '' })).organization_id).toBeNull();
    expect(await codeOf(caller.socialProviders.set({ ...base, organization_id: 'corp' }))).toBe('BAD_REQUEST');
    expect((await caller.socialProviders.get({ projectId, id: 'corp' })).organization_id).toBeNull();
  });
});
