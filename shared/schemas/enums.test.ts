import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  authMethodSchema,
  billingIntervalSchema,
  courierMessageStatusSchema,
  currencySchema,
  customDomainStateSchema,
  deviceFlowScopeSchema,
  environmentSchema,
  eventStreamResultSchema,
  flowMethodSchema,
  hookResultSchema,
  identityTestEventKindSchema,
  inviteActionSchema,
  inviteDeliveryModeSchema,
  inviteStatusSchema,
  localeModeSchema,
  notificationChannelSchema,
  quotaFailureReasonSchema,
  uiNodeTypeSchema,
  WORKSPACE_MEMBER_ROLES,
  workspaceRoleSchema,
} from './enums';

type AnyEnum = z.ZodEnum<Record<string, string>>;

const table: [string, AnyEnum, string[]][] = [
  ['workspace member role', workspaceRoleSchema, ['owner', 'developer']],
  ['billing interval', billingIntervalSchema, ['monthly', 'yearly']],
  ['currency', currencySchema, ['usd', 'eur']],
  ['environment', environmentSchema, ['prod', 'stage', 'dev']],
  ['invite delivery mode', inviteDeliveryModeSchema, ['link', 'code']],
  ['flow method', flowMethodSchema, ['link', 'code']],
  ['notification channel', notificationChannelSchema, ['email', 'sms']],
  ['auth method', authMethodSchema, ['basic_auth', 'api_key']],
  ['locale mode', localeModeSchema, ['force_default', 'respect_accept_language']],
  ['courier message status', courierMessageStatusSchema, ['queued', 'sent', 'processing', 'abandoned']],
  ['event-stream result', eventStreamResultSchema, ['failed', 'success']],
  ['identity-hook result', hookResultSchema, ['failed', 'success']],
  [
    'identity-service test-event kind',
    identityTestEventKindSchema,
    [
      'recovery_invalid',
      'recovery_valid',
      'recovery_code_invalid',
      'recovery_code_valid',
      'verification_invalid',
      'verification_valid',
      'verification_code_invalid',
      'verification_code_valid',
      'stub',
      'login_code_valid',
      'registration_code_valid',
    ],
  ],
  ['UI node type', uiNodeTypeSchema, ['text', 'input', 'img', 'a', 'script', 'div']],
  ['device-flow scope', deviceFlowScopeSchema, ['identity', 'devices']],
  ['quota failure reason', quotaFailureReasonSchema, ['feature_not_available', 'quota_exceeded']],
  ['invite status', inviteStatusSchema, ['pending', 'accepted', 'declined', 'expired', 'cancelled', 'removed']],
  ['invite action', inviteActionSchema, ['accept', 'decline', 'cancel']],
  ['custom-domain state', customDomainStateSchema, ['pending', 'active', 'inactive', 'not-found']],
];

describe('spec §3/§4 enumerations', () => {
  it.each(table)('%s has exactly the spec values', (_name, schema, values) => {
    expect(schema.options).toEqual(values);
  });

  it.each(table.flatMap(([name, schema, values]) => values.map((v) => [name, schema, v] as const)))(
    '%s accepts %s',
    (_name, schema, value) => {
      expect(schema.parse(value)).toBe(value);
    },
  );

  it.each(
    table.flatMap(([name, schema, values]) =>
      ['', ' ', values[0]!.toUpperCase(), `${values[0]} `, 'unknown'].map((v) => [name, schema, v] as const),
    ),
  )('%s refuses %j', (_name, schema, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });

  it('has all 11 test-event kinds', () => {
    expect(identityTestEventKindSchema.options).toHaveLength(11);
  });

  it('lists workspace member roles', () => {
    expect(WORKSPACE_MEMBER_ROLES).toEqual(['owner', 'developer']);
  });
});
