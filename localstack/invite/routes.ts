import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { planDisplayName } from '../../shared/domain/plans';
import type { LocalStackContext } from '../kernel/context';
import { sendMail } from '../courier/service';
import { CONSOLE_NID } from '../kernel/tenant-id';
import { route } from '../kernel/route';
import { projectRefParams, workspaceParams } from '../project/bodies';
import { actorId, type Caller } from '../kernel/caller';
import { conflict, forbidden, notFound } from '../kernel/errors';
import { projectFor, workspaceFor } from '../kernel/permissions';
import { assertRoomFor, planInForce, type Scope } from '../billing/quota';
import type { MemberInviteRow } from '../project/schema';
import { findProjectByRef, findProjectWithName } from '../project/store';
import { projectRole, workspaceRole } from '../kernel/roles';
import { findWorkspace } from '../workspace/store';
import type { Queryable } from '../kernel/queryable';
import {
  addMember,
  createInvite,
  effectiveStatus,
  findInvite,
  findInviteWithOwner,
  hashInviteToken,
  hasVerifiedEmail,
  linkInvite,
  listInvitesFor,
  listScopeInvites,
  setInviteStatus,
  type InviteWithOwner,
} from './store';

const email = z
  .string({ error: 'is required' })
  .trim()
  .max(320, { error: 'must be at most 320 characters' })
  .pipe(z.email({ error: 'must be an email address such as colleague@example.com' }));
const role = z.enum(['owner', 'developer'], { error: 'must be owner or developer' });

/** CreateProjectMemberInviteBody / CreateWorkspaceMemberInviteBody (roles of this stack: owner, developer). */
const projectInviteBody = z.object({ invitee_email: email, role: role.default('developer') });
const workspaceInviteBody = z.object({ invitee_email: email, role });
const inviteParams = z.object({ invite: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });
const inviteTokenQuery = z.object({ token: z.uuid({ error: 'must be the UUID token of the invite link' }) });
const inviteTokenBody = z.object({ invite_token: z.uuid({ error: 'must be the UUID token of the invite link' }) });

/** memberInvite, as the control plane answers it (the link token never appears). */
export function inviteView({ invite, owner_email }: InviteWithOwner, now: Date) {
  return {
    id: invite.id,
    invitee_email: invite.invitee_email,
    invitee_id: invite.invitee_id,
    owner_id: invite.owner_id,
    owner_email: owner_email ?? '',
    project_id: invite.project_id,
    workspace_id: invite.workspace_id,
    role: invite.role,
    status: effectiveStatus(invite, now),
    created_at: invite.created_at.toISOString(),
    updated_at: invite.updated_at.toISOString(),
  };
}

const REFUSALS: Record<string, string> = {
  accepted: 'This invite was already accepted.',
  declined: 'This invite was declined.',
  expired: 'This invite has expired; ask for a new one.',
  cancelled: 'This invite was cancelled by the team.',
  removed: 'This invite was removed.',
};

/** Every action on an invite needs it pending and unexpired: 409 with the reason otherwise. */
function assertPending(invite: MemberInviteRow, now: Date): void {
  const status = effectiveStatus(invite, now);
  if (status !== 'pending') throw conflict(REFUSALS[status] ?? `This invite is ${status}.`);
}

/**
 * Only the invitee may answer an invite: the account the invite link's token attached it to, or an account
 * that has verified the invited address. An address merely typed in as the account's email proves nothing.
 */
async function assertInvitee(q: Queryable, invite: MemberInviteRow, caller: Extract<Caller, { kind: 'session' }>): Promise<void> {
  if (invite.invitee_id === caller.identityId) return;
  if (invite.invitee_id === null && (await hasVerifiedEmail(q, caller.identityId, invite.invitee_email))) return;
  if (invite.invitee_id === null && caller.session.email.trim().toLowerCase() === invite.invitee_email) {
    throw forbidden(`Verify your email address ${invite.invitee_email} first, or open the invite from the link in its email.`);
  }
  // Someone else's invite is answered as missing: its existence is none of the caller's business.
  throw notFound(`Invite ${invite.id} does not exist.`);
}

/** An invite speaks for its sender: once they are no longer an owner of its project or workspace, it cannot be accepted. */
async function assertSenderStillOwner(q: Queryable, invite: MemberInviteRow): Promise<void> {
  const project = invite.project_id ? await findProjectByRef(q, invite.project_id) : undefined;
  const role = project ? await projectRole(q, invite.owner_id, project) : await workspaceRole(q, invite.owner_id, invite.workspace_id!);
  if (role !== 'owner') {
    throw conflict(`Whoever sent this invite is no longer an owner of the ${invite.project_id ? 'project' : 'workspace'}; ask a current owner for a new invite.`);
  }
}

/** The owner check on an invite's project or workspace (cancel, delete). */
async function assertScopeOwner(q: Queryable, invite: MemberInviteRow, caller: Caller): Promise<void> {
  if (invite.project_id) await projectFor(q, caller, invite.project_id, 'owner', true);
  else await workspaceFor(q, caller, invite.workspace_id!, 'owner', true);
}

async function targetName(q: Queryable, invite: MemberInviteRow): Promise<{ kind: 'project' | 'workspace'; id: string; name: string }> {
  if (invite.project_id) {
    const project = await findProjectWithName(q, invite.project_id);
    return { kind: 'project', id: invite.project_id, name: project?.name ?? '' };
  }
  const workspace = await findWorkspace(q, invite.workspace_id!);
  return { kind: 'workspace', id: invite.workspace_id!, name: workspace?.name ?? '' };
}

/**
 * Invites (spec §7 Invites, and the project and workspace invite calls): owners invite by email with a
 * role, within the plan's seats; the invitee accepts or declines (or attaches the invite to another account
 * with the link's token); owners cancel or remove. Pending → accepted | declined | expired (7 days) |
 * cancelled | removed; any action on an invite that is no longer pending answers 409 with the reason.
 */
export function registerInviteRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  async function invite(q: Queryable, caller: Caller, scopeOf: Scope, body: { invitee_email: string; role: 'owner' | 'developer' }) {
    const target = scopeOf.kind === 'project' ? { projectId: scopeOf.project.id } : { workspaceId: scopeOf.workspaceId };
    const pending = await listScopeInvites(q, target);
    if (pending.some((i) => i.invite.invitee_email === body.invitee_email.toLowerCase() && effectiveStatus(i.invite, ctx.clock.now()) === 'pending')) {
      throw conflict(`${body.invitee_email} already has a pending invite; resend it or cancel it first.`);
    }
    await assertRoomFor(q, scopeOf, 'collaborator_seats', 'team members', ctx.clock.now());
    const { row, token } = await createInvite(q, { scope: target, email: body.invitee_email, role: body.role, ownerId: actorId(caller) }, ctx.clock.now());
    const created = (await findInviteWithOwner(q, row.id))!;
    const what = await targetName(q, row);
    const link = new URL('/invites', ctx.uiUrl);
    link.searchParams.set('invite', row.id);
    link.searchParams.set('token', token);
    const from = created.owner_name || created.owner_email || 'A teammate';
    await sendMail({ ctx }, q, CONSOLE_NID, {
      to: row.invitee_email,
      subject: `${from} invited you to the ${what.kind} ${what.name}`,
      body: `${from} invited you to join the ${what.kind} "${what.name}" as ${row.role} on the ${planDisplayName(await planInForce(q, scopeOf))} plan.\n\nAccept or decline the invite here (it expires in 7 days):\n${link.toString()}\n`,
      template: 'member_invite',
    });
    return {
      created_invite: inviteView(created, ctx.clock.now()),
      all_invites: (await listScopeInvites(q, target)).map((i) => inviteView(i, ctx.clock.now())),
    };
  }

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project/invites',
    params: projectRefParams,
    body: projectInviteBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.owner',
    status: 201,
    handler: async ({ q, caller, project, body }) => invite(q, caller, { kind: 'project', project }, body),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/invites',
    params: projectRefParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    handler: async ({ q, project }) => (await listScopeInvites(q, { projectId: project.id })).map((i) => inviteView(i, ctx.clock.now())),
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/workspaces/:workspace/invites',
    params: workspaceParams,
    body: workspaceInviteBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.owner',
    status: 201,
    handler: async ({ q, caller, workspace, body }) => invite(q, caller, { kind: 'workspace', workspaceId: workspace.id }, body),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/invites',
    params: workspaceParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    handler: async ({ q, workspace }) => (await listScopeInvites(q, { workspaceId: workspace.id })).map((i) => inviteView(i, ctx.clock.now())),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/invites',
    auth: 'session',
    // The invitee cannot read the project or workspace yet: the list names it and the inviter for them.
    handler: async ({ q, caller }) =>
      Promise.all(
        (await listInvitesFor(q, caller.identityId, ctx.clock.now())).map(async (found) => ({
          ...inviteView(found, ctx.clock.now()),
          owner_name: found.owner_name ?? '',
          target_name: (await targetName(q, found.invite)).name,
        })),
      ),
  });

  // What the invitee needs to decide, before signing in: who invited them to what, as which role. Only the
  // emailed link's token shows it: an invite id alone (or with a wrong token) tells nothing.
  route(scope, ctx, {
    method: 'GET',
    url: '/public/invites/:invite',
    params: inviteParams,
    query: inviteTokenQuery,
    auth: 'public',
    handler: async ({ q, params, query }) => {
      const found = await findInviteWithOwner(q, params.invite);
      if (!found || found.invite.token_hash !== hashInviteToken(query.token)) throw notFound(`Invite ${params.invite} does not exist.`);
      const target = await targetName(q, found.invite);
      return {
        id: found.invite.id,
        status: effectiveStatus(found.invite, ctx.clock.now()),
        invitee_email: found.invite.invitee_email,
        role: found.invite.role,
        inviter_name: found.owner_name ?? '',
        inviter_email: found.owner_email ?? '',
        target_kind: target.kind,
        target_name: target.name,
        expires_at: found.invite.expires_at.toISOString(),
      };
    },
  });

  const answer = (action: 'accept' | 'decline') =>
    route(scope, ctx, {
      method: 'PUT',
      url: `/invites/:invite/${action}`,
      params: inviteParams,
      auth: 'session',
      handler: async ({ q, caller, params }) => {
        const row = await findInvite(q, params.invite, true);
        if (!row) throw notFound(`Invite ${params.invite} does not exist.`);
        await assertInvitee(q, row, caller);
        assertPending(row, ctx.clock.now());
        if (action === 'accept') {
          await assertSenderStillOwner(q, row);
          await addMember(q, row, caller.identityId);
        }
        await setInviteStatus(q, row.id, action === 'accept' ? 'accepted' : 'declined', caller.identityId);
        return inviteView((await findInviteWithOwner(q, row.id))!, ctx.clock.now());
      },
    });
  answer('accept');
  answer('decline');

  route(scope, ctx, {
    method: 'PUT',
    url: '/invites/:invite/cancel',
    params: inviteParams,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params }) => {
      const row = await findInvite(q, params.invite, true);
      if (!row) throw notFound(`Invite ${params.invite} does not exist.`);
      await assertScopeOwner(q, row, caller);
      assertPending(row, ctx.clock.now());
      await setInviteStatus(q, row.id, 'cancelled');
      return inviteView((await findInviteWithOwner(q, row.id))!, ctx.clock.now());
    },
  });

  // Attach an invite sent to another address to the signed-in account, proving it with the link's token.
  route(scope, ctx, {
    method: 'PUT',
    url: '/invites/:invite/link',
    params: inviteParams,
    body: inviteTokenBody,
    auth: 'session',
    handler: async ({ q, caller, params, body }) => {
      const row = await findInvite(q, params.invite, true);
      if (!row || row.token_hash !== hashInviteToken(body.invite_token)) throw notFound(`Invite ${params.invite} does not exist.`);
      assertPending(row, ctx.clock.now());
      if (row.invitee_id && row.invitee_id !== caller.identityId) throw forbidden('This invite is already attached to another account.');
      await linkInvite(q, row.id, caller.identityId);
      return inviteView((await findInviteWithOwner(q, row.id))!, ctx.clock.now());
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/invites/:invite',
    params: inviteParams,
    auth: 'session-or-workspace-key',
    status: 204,
    handler: async ({ q, caller, params }) => {
      const row = await findInvite(q, params.invite, true);
      if (!row) throw notFound(`Invite ${params.invite} does not exist.`);
      await assertScopeOwner(q, row, caller);
      if (row.status === 'removed') throw conflict(REFUSALS.removed!);
      await setInviteStatus(q, row.id, 'removed');
    },
  });
}
