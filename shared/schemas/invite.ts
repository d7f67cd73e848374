import { z } from 'zod';
import { inviteStatusSchema } from './enums';

/** The control plane's memberInvite (a project or a workspace invite). */
export const memberInviteSchema = z.looseObject({
  id: z.string(),
  invitee_email: z.string(),
  invitee_id: z.string().nullable().optional(),
  owner_id: z.string(),
  owner_email: z.string(),
  project_id: z.string().nullable().optional(),
  workspace_id: z.string().nullable().optional(),
  role: z.string().nullable().optional(),
  status: inviteStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type MemberInvite = z.infer<typeof memberInviteSchema>;

/** Body of PUT /invites/{invite}/link. */
export const inviteTokenBodySchema = z.object({ invite_token: z.uuid({ message: 'Must be a UUID' }) });
export type InviteTokenBody = z.infer<typeof inviteTokenBodySchema>;
