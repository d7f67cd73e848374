import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, ne, or, sql } from 'drizzle-orm';
import { identities, identityVerifiableAddresses } from '../identity/schema';
import { CONSOLE_NID } from '../kernel/tenant-id';
import { memberInvites, projectMembers, projects, workspaceMembers, type MemberInviteRow } from '../project/schema';
import type { Queryable } from '../kernel/queryable';
import { highestRole, type Role } from '../kernel/roles';
import { authorizationChanged } from '../kernel/authz-cache';

/** How long an invite stays open (spec §4 states: pending → … | expired). */
export const INVITE_LIFESPAN_MS = 7 * 24 * 60 * 60 * 1000;

export type InviteStatus = 'pending' | 'accepted' | 'declined' | 'expired' | 'cancelled' | 'removed';

export const hashInviteToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The status a caller sees at `now` (the stack's clock): a pending invite past its expiry reads as expired. */
export function effectiveStatus(row: Pick<MemberInviteRow, 'status' | 'expires_at'>, now: Date): InviteStatus {
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
export async function createInvite(q: Queryable, invite: NewInvite, now: Date): Promise<{ row: MemberInviteRow; token: string }> {
  const token = randomUUID();
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

/**
 * The console account's verified email addresses, lower-cased. Only these prove the account receives mail
 * at an address: the traits email is whatever the account typed at registration or in its settings.
 */
const verifiedEmails = (identityId: string) =>
  sql`(SELECT lower(${identityVerifiableAddresses.value}) FROM ${identityVerifiableAddresses}
    WHERE ${identityVerifiableAddresses.nid} = ${CONSOLE_NID} AND ${identityVerifiableAddresses.identity_id} = ${identityId}
      AND ${identityVerifiableAddresses.via} = 'email' AND ${identityVerifiableAddresses.verified})`;

/** Whether the identity has verified `email` (case-insensitive). */
export async function hasVerifiedEmail(q: Queryable, identityId: string, email: string): Promise<boolean> {
  const [row] = await q.orm
    .select({ id: identityVerifiableAddresses.id })
    .from(identityVerifiableAddresses)
    .where(
      and(
        eq(identityVerifiableAddresses.nid, CONSOLE_NID),
        eq(identityVerifiableAddresses.identity_id, identityId),
        eq(identityVerifiableAddresses.via, 'email'),
        eq(identityVerifiableAddresses.verified, true),
        sql`lower(${identityVerifiableAddresses.value}) = ${email.trim().toLowerCase()}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Pending, unexpired invites this identity may answer: sent to one of its verified addresses, or attached
 * to it with the link's token. An invite to an address the account has not verified is not listed: who
 * invited that address to what is none of the account's business until it proves the address is its own.
 */
export function listInvitesFor(q: Queryable, identityId: string, now: Date): Promise<InviteWithOwner[]> {
  return withOwner(q)
    .where(
      and(
        eq(memberInvites.status, 'pending'),
        gt(memberInvites.expires_at, now),
        or(sql`${memberInvites.invitee_email} IN ${verifiedEmails(identityId)}`, eq(memberInvites.invitee_id, identityId)),
      ),
    )
    .orderBy(desc(memberInvites.created_at), memberInvites.id);
}

/**
 * Cancels the pending invites `ownerId` sent to a project, or to a workspace and its projects: who sent them
 * no longer speaks for the team, so they neither hold seats nor can be accepted.
 */
export async function cancelInvitesSentBy(q: Queryable, ownerId: string, scope: NewInvite['scope']): Promise<void> {
  const where =
    'projectId' in scope
      ? eq(memberInvites.project_id, scope.projectId)
      : or(
          eq(memberInvites.workspace_id, scope.workspaceId),
          inArray(memberInvites.project_id, q.orm.select({ id: projects.id }).from(projects).where(eq(projects.workspace_id, scope.workspaceId))),
        );
  await q.orm
    .update(memberInvites)
    .set({ status: 'cancelled', updated_at: new Date() })
    .where(and(eq(memberInvites.owner_id, ownerId), eq(memberInvites.status, 'pending'), where));
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
  // A role taken over by the invite's may be lower than a key's creator had.
  authorizationChanged();
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
