import { z } from 'zod';
import { TEST_EVENT_KINDS } from '../domain/email-templates';
import { environmentSchema, workspaceRoleSchema } from './common';

/** Spec §3 and §4 enumerations: one zod enum and one type each. */

export { environmentSchema, workspaceRoleSchema };
export type { Environment, WorkspaceRole } from './common';

export const WORKSPACE_MEMBER_ROLES = workspaceRoleSchema.options;

export const billingIntervalSchema = z.enum(['monthly', 'yearly']);
export type BillingInterval = z.infer<typeof billingIntervalSchema>;

export const currencySchema = z.enum(['usd', 'eur']);
export type Currency = z.infer<typeof currencySchema>;

/** Invite delivery mode and self-service flow method share the same two values. */
export const deliveryMethodSchema = z.enum(['link', 'code']);
export type DeliveryMethod = z.infer<typeof deliveryMethodSchema>;
export const inviteDeliveryModeSchema = deliveryMethodSchema;
export type InviteDeliveryMode = DeliveryMethod;
export const flowMethodSchema = deliveryMethodSchema;
export type FlowMethod = DeliveryMethod;

export const notificationChannelSchema = z.enum(['email', 'sms']);
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

export const authMethodSchema = z.enum(['basic_auth', 'api_key']);
export type AuthMethod = z.infer<typeof authMethodSchema>;

export const localeModeSchema = z.enum(['force_default', 'respect_accept_language']);
export type LocaleMode = z.infer<typeof localeModeSchema>;

export const courierMessageStatusSchema = z.enum(['queued', 'sent', 'processing', 'abandoned']);
export type CourierMessageStatus = z.infer<typeof courierMessageStatusSchema>;

/** Result of an event-stream delivery and of an identity hook. */
export const hookResultSchema = z.enum(['failed', 'success']);
export type HookResult = z.infer<typeof hookResultSchema>;
export const eventStreamResultSchema = hookResultSchema;
export type EventStreamResult = HookResult;

export const identityTestEventKindSchema = z.enum(TEST_EVENT_KINDS);
export type IdentityTestEventKind = z.infer<typeof identityTestEventKindSchema>;

export const uiNodeTypeSchema = z.enum(['text', 'input', 'img', 'a', 'script', 'div']);
export type UiNodeType = z.infer<typeof uiNodeTypeSchema>;

export const deviceFlowScopeSchema = z.enum(['identity', 'devices']);
export type DeviceFlowScope = z.infer<typeof deviceFlowScopeSchema>;

/** Also the known `error.id` values of errorGeneric on quota failures. */
export const quotaFailureReasonSchema = z.enum(['feature_not_available', 'quota_exceeded']);
export type QuotaFailureReason = z.infer<typeof quotaFailureReasonSchema>;

/** Spec §4: invite statuses. Accept, decline and cancel are separate actions. */
export const inviteStatusSchema = z.enum(['pending', 'accepted', 'declined', 'expired', 'cancelled', 'removed']);
export type InviteStatus = z.infer<typeof inviteStatusSchema>;

export const inviteActionSchema = z.enum(['accept', 'decline', 'cancel']);
export type InviteAction = z.infer<typeof inviteActionSchema>;

/** Spec §4: the derived state of a custom domain. */
export const customDomainStateSchema = z.enum(['pending', 'active', 'inactive', 'not-found']);
export type CustomDomainState = z.infer<typeof customDomainStateSchema>;
