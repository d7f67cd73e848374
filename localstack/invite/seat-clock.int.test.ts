import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { createProject, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';
import { setPlan } from '../billing/quota';
import { INVITE_LIFESPAN_MS } from './store';

let stack: LocalStack;
let owner: TestUser;

beforeAll(async () => {
  stack = await startTestStack({ mailbox: true });
  owner = await newUser(stack, 'Owner');
});
afterAll(async () => {
  await stack?.close();
});

describe('seats in use', () => {
  it('stop counting a pending invite once the stack’s clock passes its expiry', async () => {
    const project = await createProject(owner, 'Seat clock');
    await setPlan(stack.db, { kind: 'project', project: { id: project.id, workspace_id: null } }, 'Production@0');
    const created = await owner.call('POST', `/projects/${project.id}/invites`, { invitee_email: `seat-${crypto.randomUUID()}@example.com` });
    expect(created.status).toBe(201);
    expect((await owner.call('GET', `/quota/project/${project.id}/collaborator_seats`)).body).toMatchObject({ used: 2 });

    // A developer's jump in time: the owner's session is carried along, the invite's expiry is not.
    expect((await rawCall(stack.url, null, 'PUT', '/local/clock', { advance_ms: INVITE_LIFESPAN_MS + 60_000 })).status).toBe(200);
    expect((await owner.call('GET', `/quota/project/${project.id}/collaborator_seats`)).body).toMatchObject({ used: 1 });
  });
});
