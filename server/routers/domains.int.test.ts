import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cnameTarget, customDomainState } from '../../shared/domain/custom-domain';
import { MESSAGES } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { setPlan } from '../test-support/localstack-data';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

/*
 * The domains procedures through the BFF against a real local stack: spec §5's missing project id, the 409
 * between projects as the console words it, states that follow DNS, and a second user who gets nothing.
 */

let stack: TestStack;
let deps: AppDeps;
let a: ReturnType<typeof callerFor>;
let b: ReturnType<typeof callerFor>;
let first: { id: string; slug: string };
let second: { id: string };

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [userA, userB] = await Promise.all([registerUser(stack.url, { name: 'Ada' }), registerUser(stack.url, { name: 'Bea' })]);
  a = callerFor(deps, userA.cookie);
  b = callerFor(deps, userB.cookie);
  const workspace = (await a.workspaces.create({ name: 'Domains' })).id!;
  await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace }, 'Production@0');
  first = await a.projects.create({ name: 'First', environment: 'dev', workspaceId: workspace });
  second = await a.projects.create({ name: 'Second', environment: 'dev', workspaceId: workspace });
});
afterAll(async () => {
  await stack?.close();
});

describe('domains', () => {
  it('refuses a list without a project id in the spec’s words', async () => {
    const error = await rejection((a.domains.list as (input: unknown) => Promise<unknown>)({}));
    expect(error?.code).toBe('BAD_REQUEST');
    expect(error?.message).toBe(MESSAGES.customDomainsProjectIdRequired);
  });

  it('adds a pending domain that turns active once its CNAME points at the project, and updates and removes it', async () => {
    const added = await a.domains.create({ projectId: first.id, hostname: ' Auth.Bff.Example.TEST ' });
    expect(added).toMatchObject({ hostname: 'auth.bff.example.test', verification_status: 'pending' });
    expect(customDomainState(added)).toBe('pending');
    stack.stack.localDns!.set('auth.bff.example.test', cnameTarget(first.slug));
    const [listed] = await a.domains.list({ projectId: first.id });
    expect(customDomainState(listed!)).toBe('active');

    const updated = await a.domains.update({ projectId: first.id, domainId: added.id!, corsEnabled: true, corsAllowedOrigins: ['https://app.bff.example.test'] });
    expect(updated).toMatchObject({ cors_enabled: true, cors_allowed_origins: ['https://app.bff.example.test'], hostname: 'auth.bff.example.test' });
    // The domain is the first project's: named through the second, it is not found.
    expect((await rejection(a.domains.update({ projectId: second.id, domainId: added.id!, corsEnabled: false })))?.code).toBe('NOT_FOUND');

    const conflict = await rejection(a.domains.create({ projectId: second.id, hostname: 'auth.bff.example.test' }));
    expect(conflict?.code).toBe('CONFLICT');

    await a.domains.delete({ projectId: first.id, domainId: added.id! });
    expect(await a.domains.list({ projectId: first.id })).toEqual([]);
    expect(customDomainState((await a.domains.create({ projectId: second.id, hostname: 'auth.bff.example.test' })))).toBe('pending');
  });

  it('gives a second user nothing of the first user’s domains, and leaves them as they were', async () => {
    const [kept] = await a.domains.list({ projectId: second.id });
    const calls = [
      () => b.domains.list({ projectId: second.id }),
      () => b.domains.create({ projectId: second.id, hostname: 'planted.example.test' }),
      () => b.domains.update({ projectId: second.id, domainId: kept!.id!, corsEnabled: true }),
      () => b.domains.delete({ projectId: second.id, domainId: kept!.id! }),
    ];
    // One after the other: each refusal is awaited as it comes, none left unhandled meanwhile.
    for (const call of calls) expect((await rejection(call()))?.code).toMatch(/^(FORBIDDEN|NOT_FOUND)$/);
    expect(await a.domains.list({ projectId: second.id })).toEqual([kept]);
  });
});
