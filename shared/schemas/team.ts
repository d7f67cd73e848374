import type { ProjectApiKey, QuotaUsage as OryQuotaUsage, WorkspaceApiKey } from '@ory/client';
import { z } from 'zod';
import { quotaFeatureSchema, quotaUsageSchema } from '../domain/quota';
import { uuidSchema } from './common';
import { memberInviteSchema } from './invite';
import { projectMemberSchema } from './project';
import { conformsTo, type Relaxed } from './wire';

/*
 * Team and access: members, invites, API keys and quotas of a project or a workspace. A procedure that
 * works on either takes `{ projectId }` or `{ workspaceId }` (exactly one), as the base procedures read them.
 */

/** `{ projectId }` or `{ workspaceId }` (exactly one), with more fields: the input of a project-or-workspace procedure. */
export function scoped<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ projectId: uuidSchema.optional(), workspaceId: uuidSchema.optional(), ...shape })
    .refine((input) => {
      const ids = input as { projectId?: string; workspaceId?: string };
      return (ids.projectId === undefined) !== (ids.workspaceId === undefined);
    }, {
      error: 'Name a project (projectId) or a workspace (workspaceId), not both.',
      path: ['projectId'],
    });
}

export const teamRoleSchema = z.enum(['owner', 'developer'], { error: 'Choose the role owner or developer.' });
export type TeamRole = z.infer<typeof teamRoleSchema>;

const emailSchema = z
  .string({ error: 'Enter an email address.' })
  .trim()
  .max(320, { error: 'An email address has at most 320 characters.' })
  .pipe(z.email({ error: 'Enter an email address such as colleague@example.com.' }));

// ---- members ----
export const membersListInput = scoped({});
export const memberInput = scoped({ memberId: uuidSchema });
export const memberRoleInput = scoped({ memberId: uuidSchema, role: teamRoleSchema });
export const membersOutput = z.array(projectMemberSchema);
export const memberOutput = projectMemberSchema;

// ---- invites ----
export const inviteCreateInput = scoped({ email: emailSchema, role: teamRoleSchema.default('developer') });
/** The invite dialog's fields: inviteCreateInput without the scope. */
export const inviteFormSchema = z.object({ email: emailSchema, role: teamRoleSchema });
export const invitesListInput = scoped({});
export const inviteIdInput = z.object({ inviteId: uuidSchema });
/** The invite and the token of its emailed link, which attaches it to the signed-in account. */
export const inviteLinkInput = z.object({ inviteId: uuidSchema, token: z.uuid({ error: 'The invite link is incomplete: open the link from the email again.' }) });
export const inviteOutput = memberInviteSchema;
export const invitesOutput = z.array(memberInviteSchema);
/** The invitee's own invites, naming what they are invited to and by whom (they cannot read either yet). */
export const myInviteSchema = memberInviteSchema.extend({ owner_name: z.string(), target_name: z.string() });
export const myInvitesOutput = z.array(myInviteSchema);
/** An invite and its emailed link's token: without the right token the invite shows nothing. */
export const publicInviteInput = z.object({ inviteId: uuidSchema, token: z.uuid({ error: 'The invite link is incomplete: open the link from the email again.' }) });
export const createInviteOutput = z.object({ created_invite: memberInviteSchema, all_invites: z.array(memberInviteSchema) });

/** What an invitee sees before signing in (GET /public/invites/{invite}). */
export const publicInviteSchema = z.object({
  id: z.string(),
  status: memberInviteSchema.shape.status,
  invitee_email: z.string(),
  role: z.string(),
  inviter_name: z.string(),
  inviter_email: z.string(),
  target_kind: z.enum(['project', 'workspace']),
  target_name: z.string(),
  expires_at: z.string(),
});
export type PublicInvite = z.infer<typeof publicInviteSchema>;

// ---- API keys ----
const expiresAtSchema = z.iso
  .datetime({ offset: true, error: 'Enter the expiry as a date and time, such as 2030-01-01T00:00:00Z.' })
  .nullable()
  .optional();
const apiKeyNameSchema = z.string({ error: 'Name the key.' }).trim().min(1, { error: 'Name the key.' }).max(255, { error: 'A key name has at most 255 characters.' });
export const apiKeyCreateInput = scoped({ name: apiKeyNameSchema, expiresAt: expiresAtSchema });
/** The create-key dialog's fields: a name, and an optional last day (the key works until its end, UTC). */
export const apiKeyFormSchema = z.object({
  name: apiKeyNameSchema,
  expiry: z.union([z.literal(''), z.iso.date({ error: 'Enter the last day as a date, such as 2030-01-31.' })]),
});
export const apiKeysListInput = scoped({});
export const apiKeyDeleteInput = scoped({ keyId: uuidSchema });

/** projectApiKey / workspaceApiKey without the secret (a list never carries it). */
export const apiKeySchema = conformsTo<Relaxed<ProjectApiKey, 'expires_at' | 'value'> | Relaxed<WorkspaceApiKey, 'expires_at' | 'value'>>()(
  z.object({
    id: z.string(),
    name: z.string(),
    owner_id: z.string(),
    project_id: z.string().optional(),
    workspace_id: z.string().optional(),
    last_characters: z.string().optional(),
    expires_at: z.string().nullable().optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
  }),
);
export const apiKeysOutput = z.array(apiKeySchema);
/** The created key with its secret `value`: answered once, never stored by the console. */
export const apiKeyCreatedOutput = apiKeySchema.extend({ value: z.string() });
/** The API keys a member created that removing them revokes (on a workspace: on its projects too). */
export const memberKeysOutput = apiKeysOutput;

// ---- quota ----
export const quotaInput = scoped({ feature: quotaFeatureSchema });
/** quotaUsage; `feature` stays a string (the control plane knows more keys than the generated enum). */
export const quotaOutput = conformsTo<Omit<OryQuotaUsage, 'feature'> & { feature: string }>()(quotaUsageSchema);

export const quotaAllInput = scoped({});
export const quotaAllOutput = z.array(quotaOutput);

export const okOutput = z.object({ ok: z.literal(true) });
