import { z } from 'zod';
import { assertRequiredParams } from '../../shared/domain/required-param';
import {
  apiKeyCreatedOutput,
  apiKeySchema,
  createInviteOutput,
  myInvitesOutput,
  publicInviteSchema,
  quotaOutput,
  type TeamRole,
} from '../../shared/schemas/team';
import { plansOutput, upstreamInvoicesSchema, upstreamPortalSchema } from '../../shared/schemas/billing';
import { memberInviteSchema } from '../../shared/schemas/invite';
import { upstreamSubscriptionSchema, type UpstreamSubscription } from '../../shared/schemas/plans';
import { UpstreamError } from './errors';
import { projectMemberSchema } from '../../shared/schemas/project';
import type { CallContext } from './backoffice';
import type { ControlPlaneSdk } from './control-plane-sdk';
import { path, type HttpMethod } from './http';

/** A project or a workspace, as the team procedures name it. */
export type TeamScope = { kind: 'project'; projectId: string } | { kind: 'workspace'; workspaceId: string };

type Call = <T>(c: CallContext, method: HttpMethod, p: string, schema?: z.ZodType<T>, body?: unknown) => Promise<T>;

/** Billing periods per page of invoices (a year). */
const INVOICE_PAGE_SIZE = 12;

const members = z.array(projectMemberSchema);
const invites = z.array(memberInviteSchema);
const keys = z.array(apiKeySchema);
const workspaceProjectIds = z.looseObject({ projects: z.array(z.looseObject({ id: z.string() })) });

/**
 * Spec §7 members, invites, tokens and quota calls. API keys and project members go through @ory/client's
 * ProjectApi/WorkspaceApi; invites, workspace members, role changes and quotas have no SDK method and use
 * our own client (CONTRACT.md: their shapes are orphans of the published spec).
 */
export function createTeamCalls(call: Call, sdk: ControlPlaneSdk) {
  const { projects, workspaces, send } = sdk;
  const base = (s: TeamScope) => (s.kind === 'project' ? path`/projects/${s.projectId}` : path`/workspaces/${s.workspaceId}`);
  const idOf = (s: TeamScope) => (s.kind === 'project' ? s.projectId : s.workspaceId);

  function listApiKeys(c: CallContext, s: TeamScope) {
    if (s.kind === 'project') {
      assertRequiredParams('listProjectApiKeys', { project: s.projectId });
      return send(c, 'listProjectApiKeys', keys, (o) => projects.listProjectApiKeys({ project: s.projectId }, o));
    }
    assertRequiredParams('listWorkspaceApiKeys', { workspace: s.workspaceId });
    return send(c, 'listWorkspaceApiKeys', keys, (o) => workspaces.listWorkspaceApiKeys({ workspace: s.workspaceId }, o));
  }

  return {
    listMembers(c: CallContext, s: TeamScope) {
      assertRequiredParams(s.kind === 'project' ? 'getProjectMembers' : 'listWorkspaceMembers', { [s.kind]: idOf(s) });
      if (s.kind === 'project') return send(c, 'getProjectMembers', members, (o) => projects.getProjectMembers({ project: s.projectId }, o));
      return call(c, 'GET', path`/workspaces/${s.workspaceId}/members`, members);
    },
    async removeMember(c: CallContext, s: TeamScope, member: string): Promise<void> {
      assertRequiredParams(s.kind === 'project' ? 'removeProjectMember' : 'removeWorkspaceMember', { [s.kind]: idOf(s), member });
      if (s.kind === 'project') {
        await send(c, 'removeProjectMember', undefined, (o) => projects.removeProjectMember({ project: s.projectId, member }, o));
        return;
      }
      await call(c, 'DELETE', path`/workspaces/${s.workspaceId}/members/${member}`);
    },
    /** The caller's own console account (no published call: DELETE /account); refused while it is a last owner. */
    async deleteAccount(c: CallContext): Promise<void> {
      await call(c, 'DELETE', '/account');
    },
    async deleteWorkspace(c: CallContext, workspace: string): Promise<void> {
      assertRequiredParams('deleteWorkspace', { workspace });
      await call(c, 'DELETE', path`/workspaces/${workspace}`);
    },
    setMemberRole(c: CallContext, s: TeamScope, member: string, role: TeamRole) {
      assertRequiredParams('setMemberRole', { [s.kind]: idOf(s), member, role });
      return call(c, 'PUT', `${base(s)}${path`/members/${member}/role`}`, projectMemberSchema, { role });
    },

    createInvite(c: CallContext, s: TeamScope, email: string, role: TeamRole) {
      assertRequiredParams(s.kind === 'project' ? 'createProjectInvite' : 'createWorkspaceInvite', { [s.kind]: idOf(s) });
      return call(c, 'POST', `${base(s)}/invites`, createInviteOutput, { invitee_email: email, role });
    },
    listInvites(c: CallContext, s: TeamScope) {
      assertRequiredParams(s.kind === 'project' ? 'listProjectInvites' : 'listWorkspaceInvites', { [s.kind]: idOf(s) });
      return call(c, 'GET', `${base(s)}/invites`, invites);
    },
    myInvites: (c: CallContext) => call(c, 'GET', '/invites', myInvitesOutput),
    publicInvite(c: CallContext, invite: string, token: string) {
      assertRequiredParams('getPublicInvite', { invite, token });
      return call(c, 'GET', `${path`/public/invites/${invite}`}?${new URLSearchParams({ token }).toString()}`, publicInviteSchema);
    },
    answerInvite(c: CallContext, invite: string, action: 'accept' | 'decline' | 'cancel') {
      assertRequiredParams(`${action}Invite`, { invite });
      return call(c, 'PUT', path`/invites/${invite}/${action}`, memberInviteSchema);
    },
    linkInvite(c: CallContext, invite: string, token: string) {
      assertRequiredParams('linkInvite', { invite, token });
      return call(c, 'PUT', path`/invites/${invite}/link`, memberInviteSchema, { invite_token: token });
    },
    async removeInvite(c: CallContext, invite: string): Promise<void> {
      assertRequiredParams('deleteInvite', { invite });
      await call(c, 'DELETE', path`/invites/${invite}`);
    },

    listApiKeys,
    createApiKey(c: CallContext, s: TeamScope, name: string, expiresAt: string | null | undefined) {
      const body = { name, ...(expiresAt ? { expires_at: expiresAt } : {}) };
      if (s.kind === 'project') {
        assertRequiredParams('createProjectApiKey', { project: s.projectId });
        return send(c, 'createProjectApiKey', apiKeyCreatedOutput, (o) =>
          projects.createProjectApiKey({ project: s.projectId, createProjectApiKeyBody: body }, o),
        );
      }
      assertRequiredParams('createWorkspaceApiKey', { workspace: s.workspaceId });
      return send(c, 'createWorkspaceApiKey', apiKeyCreatedOutput, (o) =>
        workspaces.createWorkspaceApiKey({ workspace: s.workspaceId, createWorkspaceApiKeyBody: body }, o),
      );
    },
    /**
     * The keys `member` created on a project, or on a workspace and its projects: what removing them revokes
     * (the control plane deletes the same keys when the member is removed).
     */
    async keysCreatedBy(c: CallContext, s: TeamScope, member: string) {
      const own = (rows: z.infer<typeof keys>) => rows.filter((k) => k.owner_id === member);
      const mine = own(await listApiKeys(c, s));
      if (s.kind === 'project') return mine;
      assertRequiredParams('listWorkspaceProjects', { workspace: s.workspaceId });
      const page = await send(c, 'listWorkspaceProjects', workspaceProjectIds, (o) => workspaces.listWorkspaceProjects({ workspace: s.workspaceId }, o));
      const perProject = await Promise.all(page.projects.map((p) => listApiKeys(c, { kind: 'project', projectId: p.id })));
      return [...mine, ...perProject.flatMap(own)];
    },
    async deleteApiKey(c: CallContext, s: TeamScope, tokenId: string): Promise<void> {
      if (s.kind === 'project') {
        assertRequiredParams('deleteProjectApiKey', { project: s.projectId, tokenId });
        await send(c, 'deleteProjectApiKey', undefined, (o) => projects.deleteProjectApiKey({ project: s.projectId, tokenId }, o));
        return;
      }
      assertRequiredParams('deleteWorkspaceApiKey', { workspace: s.workspaceId, tokenId });
      await send(c, 'deleteWorkspaceApiKey', undefined, (o) => workspaces.deleteWorkspaceApiKey({ workspace: s.workspaceId, tokenId }, o));
    },

    // ---- billing (spec §7 Billing; no SDK method) ----
    pricing: (c: CallContext) => call(c, 'GET', '/pricing', plansOutput),
    async workspaceSubscription(c: CallContext, workspace: string): Promise<UpstreamSubscription | null> {
      assertRequiredParams('getWorkspaceSubscription', { workspace });
      try {
        return await call(c, 'GET', path`/workspaces/${workspace}/subscription`, upstreamSubscriptionSchema);
      } catch (error) {
        // No subscription: the workspace is on the Develop plan.
        if (error instanceof UpstreamError && error.kind === 'http' && error.status === 404) return null;
        throw error;
      }
    },
    subscription(c: CallContext, subscriptionId: string) {
      assertRequiredParams('getSubscription', { subscriptionId });
      return call(c, 'GET', path`/subscription/${subscriptionId}`, upstreamSubscriptionSchema);
    },
    setWorkspacePlan(c: CallContext, workspace: string, body: { plan: string; interval: string }) {
      assertRequiredParams('updateWorkspaceSubscription', { workspace });
      return call(c, 'PUT', path`/workspaces/${workspace}/subscription`, upstreamSubscriptionSchema, body);
    },
    createWorkspaceSubscription(c: CallContext, workspace: string, body: { plan: string; interval: string; currency: string }) {
      assertRequiredParams('createWorkspaceSubscription', { workspace });
      return call(c, 'POST', path`/workspaces/${workspace}/subscription`, upstreamSubscriptionSchema, body);
    },
    setSubscriptionPlan(c: CallContext, subscriptionId: string, body: { plan: string; interval: string }) {
      assertRequiredParams('updateSubscription', { subscriptionId });
      return call(c, 'PUT', path`/subscription/${subscriptionId}`, upstreamSubscriptionSchema, body);
    },
    createProjectSubscription(c: CallContext, projectId: string, body: { plan: string; interval: string; currency: string }) {
      assertRequiredParams('createSubscription', { provision_first_project: projectId });
      return call(c, 'POST', '/subscription', upstreamSubscriptionSchema, { ...body, provision_first_project: projectId });
    },
    invoices(c: CallContext, subscriptionId: string, pageToken: string | undefined) {
      assertRequiredParams('listSubscriptionInvoices', { subscriptionId });
      const query = new URLSearchParams({ page_size: String(INVOICE_PAGE_SIZE), ...(pageToken ? { page_token: pageToken } : {}) });
      return call(c, 'GET', `${path`/subscription/${subscriptionId}/invoices`}?${query}`, upstreamInvoicesSchema);
    },
    customerPortal(c: CallContext, target: { subscriptionId: string } | { workspace: string }, returnTo: string) {
      const query = new URLSearchParams({ return_to: returnTo });
      if ('workspace' in target) {
        assertRequiredParams('getWorkspaceCustomerPortal', { workspace: target.workspace });
        return call(c, 'GET', `${path`/workspaces/${target.workspace}/customer-portal`}?${query}`, upstreamPortalSchema);
      }
      assertRequiredParams('getCustomerPortal', { subscriptionId: target.subscriptionId });
      query.set('subscription_id', target.subscriptionId);
      return call(c, 'GET', `/customer/portal?${query}`, upstreamPortalSchema);
    },
    async unlinkProjectSubscription(c: CallContext, projectId: string): Promise<void> {
      assertRequiredParams('unlinkProjectSubscription', { projectId });
      await call(c, 'DELETE', path`/projects/${projectId}/subscription`);
    },

    quota(c: CallContext, s: TeamScope, feature: string) {
      assertRequiredParams(s.kind === 'project' ? 'getProjectQuota' : 'getWorkspaceQuota', { [s.kind]: idOf(s), feature });
      return call(c, 'GET', s.kind === 'project' ? path`/quota/project/${s.projectId}/${feature}` : path`/quota/workspace/${s.workspaceId}/${feature}`, quotaOutput);
    },
  };
}
