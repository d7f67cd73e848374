import { describe, expect, it } from 'vitest';
import { inviteTokenBodySchema, memberInviteSchema } from './invite';

const invite = {
  id: 'i1',
  invitee_email: 'new@example.com',
  owner_id: 'o1',
  owner_email: 'owner@example.com',
  workspace_id: 'w1',
  status: 'pending',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('memberInviteSchema', () => {
  it.each(['pending', 'accepted', 'declined', 'expired', 'cancelled', 'removed'])('accepts status %s', (status) => {
    expect(memberInviteSchema.parse({ ...invite, status }).status).toBe(status);
  });

  it.each(['', 'canceled', 'PENDING', 'revoked'])('refuses status %j', (status) => {
    expect(memberInviteSchema.safeParse({ ...invite, status }).success).toBe(false);
  });
});

describe('inviteTokenBodySchema', () => {
  it.each([
    [{ invite_token: '6b9f4a3c-1d2e-4f50-8a1b-2c3d4e5f6a7b' }, true],
    [{ invite_token: 'not-a-uuid' }, false],
    [{}, false],
  ])('%j → %s', (body, valid) => {
    expect(inviteTokenBodySchema.safeParse(body).success).toBe(valid);
  });
});
