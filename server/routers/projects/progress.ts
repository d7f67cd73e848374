import { projectIdInput, projectProgressOutput } from '../../../shared/schemas/project';
import { dataPlaneProcedure } from '../../trpc/init';

/**
 * The project's progress towards its first signed-in user, each step read from where it happens: one row
 * of identities, sessions and OAuth2 clients from the project's data plane, its members and invites from
 * the control plane, all asked at once.
 */
export const progress = dataPlaneProcedure('backoffice.project.read')
  .input(projectIdInput)
  .output(projectProgressOutput)
  .query(async ({ ctx }) => {
    const { identity, oauth2 } = ctx.apis;
    const scope = { kind: 'project' as const, projectId: ctx.projectId };
    const [identities, sessions, clients, members, invites] = await Promise.all([
      identity.listIdentities({ pageSize: 1 }),
      identity.listSessions({ pageSize: 1 }),
      oauth2.listOAuth2Clients({ pageSize: 1 }),
      ctx.deps.backoffice.listProjectMembers(ctx.call, ctx.projectId),
      ctx.deps.backoffice.team.listInvites(ctx.call, scope),
    ]);
    return {
      identity: identities.data.length > 0,
      signIn: sessions.data.length > 0,
      oauth2Client: clients.data.length > 0,
      teammate: members.length > 1 || invites.length > 0,
    };
  });
