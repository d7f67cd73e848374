import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, ne, or, sql } from 'drizzle-orm';
import { identities } from '../../identity/schema';
import { memberInvites, projectMembers, workspaceMembers, type MemberInviteRow } from '../schema';
import type { Queryable } from '../types';
import { highestRole, type Role } from '../store/roles';

/** How long an invite stays open (spec §4 states: pending → … | expired). */
export const INVITE_LIFESPAN_MS = 7 * 24 * 60 * 60 * 1000;

export type InviteStatus = 'pending' | 'accepted' | 'declined' | 'expired' | 'cancelled' | 'removed';

export const hashInviteToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The status a caller sees: a pending invite past its expiry reads as expired. */
export function effectiveStatus(row: Pick<MemberInviteRow, 'status' | 'expires_at'>, now = new Date()): InviteStatus {
  if (row.status === 'pending' && row.expires_at.getTime() <= now.getTime()) return 'expired';
  return row.status as InviteStatus;
}

export interface NewInvite {
  scope: { projectId: string } | { workspaceId: string };
  email: string;
  role: Role;
  ownerId: string;
}

/** Stores a pending invite; answers it with its one-time link token (only the token's hash is kept). */
export async function createInvite(q: Queryable, invite: NewInvite): Promise<{ row: MemberInviteRow; token: string }> {
  const token = randomUUID();
  const now = new Date();
  const [row] = await q.orm
    .insert(memberInvites)
    .values({
      id: randomUUID(),
      ...('projectId' in invite.scope ? { project_id: invite.scope.projectId } : { workspace_id: invite.scope.workspaceId }),
      invitee_email: invite.email.trim().toLowerCase(),
      owner_id: invite.ownerId,
      role: invite.role,
      status: 'pending',
      token_hash: hashInviteToken(token),
      expires_at: new Date(now.getTime() + INVITE_LIFESPAN_MS),
      created_at: now,
      updated_at: now,
    })
    .returning();
  return { row: row!, token };
}

/** An invite with the inviter's email, for views. */
const withOwner = (q: Queryable) =>
  q.orm
    .select({ invite: memberInvites, owner_email: sql<string | null>`${identities.traits}->>'email'`, owner_name: sql<string | null>`${identities.traits}->>'name'` })
    .from(memberInvites)
    .leftJoin(identities, eq(identities.id, memberInvites.owner_id));

export type InviteWithOwner = Awaited<ReturnType<ReturnType<typeof withOwner>['execute']>>[number];

export async function findInvite(q: Queryable, id: string, lock = false): Promise<MemberInviteRow | undefined> {
  const query = q.orm.select().from(memberInvites).where(eq(memberInvites.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findInviteWithOwner(q: Queryable, id: string): Promise<InviteWithOwner | undefined> {
  const [row] = await withOwner(q).where(eq(memberInvites.id, id));
  return row;
}

/** The invites of a project or a workspace (removed ones left out), newest first. */
export function listScopeInvites(q: Queryable, scope: NewInvite['scope']): Promise<InviteWithOwner[]> {
  const where = 'projectId' in scope ? eq(memberInvites.project_id, scope.projectId) : eq(memberInvites.workspace_id, scope.workspaceId);
  return withOwner(q)
    .where(and(where, ne(memberInvites.status, 'removed')))
    .orderBy(desc(memberInvites.created_at), memberInvites.id);
}

/** Pending, unexpired invites addressed to this identity: by its email, or linked to it with a token. */
export function listInvitesFor(q: Queryable, identityId: string, email: string): Promise<InviteWithOwner[]> {
  return withOwner(q)
    .where(
      and(
        eq(memberInvites.status, 'pending'),
        sql`${memberInvites.expires_at} > now()`,
        or(eq(memberInvites.invitee_email, email.trim().toLowerCase()), eq(memberInvites.invitee_id, identityId)),
      ),
    )
    .orderBy(desc(memberInvites.created_at), memberInvites.id);
}

export async function setInviteStatus(q: Queryable, id: string, status: InviteStatus, inviteeId?: string): Promise<void> {
  await q.orm
    .update(memberInvites)
    .set({ status, updated_at: new Date(), ...(inviteeId ? { invitee_id: inviteeId } : {}) })
    .where(eq(memberInvites.id, id));
}

export async function linkInvite(q: Queryable, id: string, inviteeId: string): Promise<void> {
  await q.orm.update(memberInvites).set({ invitee_id: inviteeId, updated_at: new Date() }).where(eq(memberInvites.id, id));
}

/** Makes the identity a member with `role`, or keeps the higher role it already has. */
export async function addMember(q: Queryable, invite: MemberInviteRow, identityId: string): Promise<void> {
  const now = new Date();
  if (invite.project_id) {
    const [existing] = await q.orm
      .select({ role: projectMembers.role })
      .from(projectMembers)
      .where(and(eq(projectMembers.project_id, invite.project_id), eq(projectMembers.identity_id, identityId)));
    const role = highestRole([invite.role, ...(existing ? [existing.role] : [])])!;
    await q.orm
      .insert(projectMembers)
      .values({ project_id: invite.project_id, identity_id: identityId, role, created_at: now })
      .onConflictDoUpdate({ target: [projectMembers.project_id, projectMembers.identity_id], set: { role } });
    return;
  }
  const workspaceId = invite.workspace_id!;
  const [existing] = await q.orm
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspace_id, workspaceId), eq(workspaceMembers.identity_id, identityId)));
  const role = highestRole([invite.role, ...(existing ? [existing.role] : [])])!;
  await q.orm
    .insert(workspaceMembers)
    .values({ workspace_id: workspaceId, identity_id: identityId, role, created_at: now })
    .onConflictDoUpdate({ target: [workspaceMembers.workspace_id, workspaceMembers.identity_id], set: { role } });
}
