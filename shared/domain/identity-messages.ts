/**
 * The identity provider's messages (Kratos uiText: numeric id, text, context) as plain sentences.
 * Known ids get a sentence built from their context; every other text keeps its words, with decimal
 * durations ("15.00 minutes") said the way people say them ("15 minutes").
 */

export interface IdentityMessage {
  id: number;
  text: string;
  type?: string;
  context?: unknown;
}

/** "1 minute", "15 minutes"; under a minute counts as "less than a minute". */
export function minutesPhrase(minutes: number): string {
  const whole = Math.round(Math.abs(minutes));
  if (whole === 0) return 'less than a minute';
  return whole === 1 ? '1 minute' : `${whole} minutes`;
}

/** Rewrites every "12.34 minutes" in a text as "12 minutes". */
export function plainDurations(text: string): string {
  return text.replace(/\b(\d+(?:\.\d+)?) minutes?\b/g, (_, n: string) => minutesPhrase(Number(n)));
}

function minutesUntil(iso: unknown, now: number): number | undefined {
  if (typeof iso !== 'string') return undefined;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? undefined : (at - now) / 60_000;
}

const FLOW_EXPIRED: Record<number, string> = {
  4010001: 'sign-in',
  4040001: 'sign-up',
  4050001: 'settings',
  4060005: 'recovery',
  4070005: 'verification',
};

/** Field names as people read them, for "Property email is missing." */
const FIELD_NAMES: Record<string, string> = {
  identifier: 'your email address',
  email: 'your email address',
  'traits.email': 'your email address',
  'traits.name': 'your name',
  password: 'a password',
  code: 'the code',
};

export const IDENTITY_MESSAGE_IDS = {
  recoverySuccessful: 1060001,
  verificationCodeSent: 1080003,
  required: 4000002,
} as const;

/** The sentence to show for one message of the identity provider. */
export function identityMessageText(message: IdentityMessage, now: number = Date.now()): string {
  const context: Record<string, unknown> = typeof message.context === 'object' && message.context !== null ? (message.context as Record<string, unknown>) : {};
  if (message.id === IDENTITY_MESSAGE_IDS.recoverySuccessful) {
    const left = minutesUntil(context.privilegedSessionExpiresAt, now);
    if (left !== undefined) return `You recovered your account. Set a new password within the next ${minutesPhrase(left)}.`;
  }
  const flow = FLOW_EXPIRED[message.id];
  if (flow) {
    const ago = minutesUntil(context.expired_at, now);
    if (ago !== undefined) return `This ${flow} page expired ${minutesPhrase(ago)} ago. Please try again.`;
  }
  if (message.id === IDENTITY_MESSAGE_IDS.required && typeof context.property === 'string') {
    const field = FIELD_NAMES[context.property] ?? context.property;
    return `Please enter ${field}.`;
  }
  return plainDurations(message.text);
}
