import { TRPCError } from '@trpc/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let caller: ReturnType<typeof callerFor>;
/** The caller's own workspace and project: access is checked before the rest of the input (by design). */
let id: string;
let workspaceId: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  caller = callerFor(deps, (await registerUser(stack.url, {})).cookie);
  workspaceId = (await caller.workspaces.create({ name: 'Mine' })).id!;
  id = (await caller.projects.create({ name: 'Mine', environment: 'dev', workspaceId })).id;
});

afterAll(async () => {
  await stack?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

async function badRequest(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => new Error('expected BAD_REQUEST'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  expect(trpc.code).toBe('BAD_REQUEST');
  expect(trpc.message.length).toBeGreaterThan(0);
  expect(trpc.message).not.toMatch(/^\[/); // a sentence, not zod's raw JSON
  return trpc;
}

const notUuid = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('../etc', '1', 'null', '00000000-0000-0000-0000-00000000000g')).filter((s) => !UUID.test(s));

describe('bad inputs answer BAD_REQUEST with a message', () => {
  it('any non-UUID project or workspace id', async () => {
    await fc.assert(
      fc.asyncProperty(notUuid, async (value) => {
        const e1 = await badRequest(caller.projects.get({ projectId: value }));
        expect(e1.cause).toBeInstanceOf(ZodError);
        expect(e1.message).toContain('projectId');
        await badRequest(caller.workspaces.get({ workspaceId: value }));
        await badRequest(caller.workspaces.listProjects({ workspaceId: value }));
        await badRequest(caller.permissions.project({ projectId: value, permissions: ['backoffice.project.read'] }));
      }),
      { numRuns: 15 },
    );
  });

  it('any blank or over-long name', async () => {
    const badName = fc.oneof(
      fc.stringMatching(/^\s{0,10}$/),
      fc.string({ minLength: 256, maxLength: 400 }).filter((s) => s.trim().length > 255),
    );
    await fc.assert(
      fc.asyncProperty(badName, async (name) => {
        const error = await badRequest(caller.projects.create({ name, environment: 'dev' }));
        expect(error.message).toMatch(/^name: Project name (is required|must be at most 255 characters)$/);
        await badRequest(caller.workspaces.create({ name }));
        await badRequest(caller.workspaces.update({ workspaceId, name }));
        await badRequest(caller.projects.update({ projectId: id, name }));
      }),
      { numRuns: 10 },
    );
  });

  it('any unknown environment or permission', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 20 }).filter((s) => !['prod', 'stage', 'dev'].includes(s)),
        async (value) => {
          await badRequest(caller.projects.create({ name: 'x', environment: value as 'dev' }));
          await badRequest(caller.projects.setEnvironment({ projectId: id, environment: value as 'dev' }));
          await badRequest(caller.permissions.project({ projectId: id, permissions: [value as 'backoffice.project.read'] }));
        },
      ),
      { numRuns: 10 },
    );
  });

  it('missing fields and wrong types', async () => {
    const raw = caller as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
    await badRequest(raw.projects!.delete!({ projectId: id }));
    await badRequest(raw.projects!.delete!({ projectId: id, confirmName: '' }));
    await badRequest(raw.projects!.create!({ environment: 'dev' }));
    await badRequest(raw.workspaces!.addProject!({ workspaceId }));
    await badRequest(raw.workspaces!.list!({ pageSize: 0 }));
    await badRequest(raw.workspaces!.list!({ pageSize: 'ten' }));
    await badRequest(raw.permissions!.workspace!({ workspaceId, permissions: [] }));
    await badRequest(raw.projects!.get!(null));
  });
});
