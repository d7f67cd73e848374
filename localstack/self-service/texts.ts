import type { UiText } from '../kernel/flow-ui';

export type { UiText };

const info = (id: number, text: string, context?: Record<string, unknown>): UiText => ({
  id,
  text,
  type: 'info',
  ...(context ? { context } : {}),
});
const error = (id: number, text: string, context?: Record<string, unknown>): UiText => ({
  id,
  text,
  type: 'error',
  ...(context ? { context } : {}),
});

const minutes = (ms: number) => (Math.abs(ms) / 60_000).toFixed(2);

export const texts = {
  signIn: () => info(1010001, 'Sign in'),
  signUp: () => info(1040001, 'Sign up'),
  registerPasskey: () => info(1040007, 'Sign up with passkey'),
  addSecurityKey: () => info(1050012, 'Add security key'),
  securityKeyName: () => info(1050013, 'Name of the security key'),
  removeSecurityKey: (name: string, addedAt: string) =>
    info(1050018, `Remove security key "${name}"`, { display_name: name, added_at: addedAt, added_at_unix: Math.floor(new Date(addedAt).getTime() / 1000) }),
  useSecurityKey: () => info(1010008, 'Sign in with a hardware key'),
  noWebauthnDevice: () => error(4000013, 'You have no WebAuthn device set up.'),
  addPasskey: () => info(1050019, 'Add passkey'),
  removePasskey: (name: string, addedAt: string) =>
    info(1050020, `Remove passkey "${name}"`, { display_name: name, added_at: addedAt, added_at_unix: Math.floor(new Date(addedAt).getTime() / 1000) }),
  /** Kratos' generic validation message (4000001) with the text of the rule that failed. */
  validation: (text: string) => error(4000001, text),
  signInWithPasskey: () => info(1010021, 'Sign in with passkey'),
  passkeyInvalid: () => error(4000043, 'The provided web authn login is invalid, please try again.'),
  noPasskeyUser: () => error(4000015, 'This account does not exist or has no security key set up.'),
  sendSignInCode: () => info(1010015, 'Send sign in code'),
  loginCodeSent: () => info(1010014, "A code was sent to the address you provided. If you didn't receive it, please check the spelling of the address and try again."),
  loginCodeSentToSignedIn: () => info(1010025, "A code was sent to your address. If you didn't receive it, please try again."),
  sendCodeTo: (channel: string, address: string) => info(1010023, `Send code to ${address}`, { address, channel }),
  labelLoginCode: () => info(1070013, 'Login code'),
  loginCodeInvalid: () => error(4010008, 'The login code is invalid or has already been used. Please try again.'),
  noCodeUser: () => error(4000035, 'This account does not exist or has not setup sign in with code.'),
  accountNotFound: () => error(4000037, 'This account does not exist or has no login method configured.'),
  signInWith: (provider: string, providerId: string) => info(1010002, `Sign in with ${provider}`, { provider, provider_id: providerId }),
  signUpWith: (provider: string, providerId: string) => info(1040002, `Sign up with ${provider}`, { provider, provider_id: providerId }),
  registrationContinue: () => info(1040003, 'Continue'),
  registrationCodeSent: () =>
    info(1040005, 'A code has been sent to the address(es) you provided. If you have not received a message, check the spelling of the address and retry the registration.'),
  sendSignUpCode: () => info(1040006, 'Send sign up code'),
  labelRegistrationCode: () => info(1070012, 'Registration code'),
  registrationCodeInvalid: () => error(4040003, 'The registration code is invalid or has already been used. Please try again.'),
  traitsMismatch: () => error(4000036, 'The provided traits do not match the traits previously associated with this flow.'),
  identifierMissing: () =>
    error(4000009, 'Could not find any login identifiers. Did you forget to set them? This could also be caused by a server misconfiguration.'),
  loginAndLink: () => info(1010017, 'Sign in and link'),
  loginWithAndLink: (provider: string) => info(1010018, `Confirm with ${provider}`, { provider }),
  linkProvider: (provider: string) => info(1050002, `Link ${provider}`, { provider }),
  unlinkProvider: (provider: string) => info(1050003, `Unlink ${provider}`, { provider }),
  loginLink: (identifier: string, provider: string, newLoginUrl: string) =>
    info(
      1010016,
      `You tried to sign in with "${identifier}", but that email is already used by another account. Sign in to your account with one of the options below to add your account "${identifier}" at "${provider}" as another way to sign in.`,
      { duplicateIdentifier: identifier, provider, newLoginUrl, duplicate_identifier: identifier, new_login_url: newLoginUrl },
    ),
  duplicateCredentialsOnOidcLink: () =>
    error(
      4000027,
      'An account with the same identifier (email, phone, username, ...) exists already. Please sign in to your existing account to link your social profile.',
    ),
  settingsSaved: (): UiText => ({ id: 1050001, text: 'Your changes have been saved!', type: 'success' }),
  recoverySuccessful: (privilegedMs: number, now: Date): UiText => ({
    id: 1060001,
    text: `You successfully recovered your account. Please change your password or set up an alternative login method (e.g. social sign in) within the next ${minutes(privilegedMs)} minutes.`,
    type: 'success',
    context: { privilegedSessionExpiresAt: new Date(now.getTime() + privilegedMs).toISOString() },
  }),
  recoveryLinkSent: () =>
    info(
      1060002,
      'An email containing a recovery link has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
    ),
  recoveryCodeSent: () =>
    info(
      1060003,
      'An email containing a recovery code has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
    ),
  totpCodeLabel: () => info(1010006, 'Authentication code'),
  useAuthenticator: () => info(1010009, 'Use Authenticator'),
  unlinkTotp: () => info(1050004, 'Unlink TOTP Authenticator App'),
  totpQrCode: () => info(1050005, 'Authenticator app QR code'),
  totpSecret: (secret: string) => info(1050006, secret, { secret }),
  totpSecretLabel: () => info(1050017, 'This is your authenticator app secret. Use it if you can not scan the QR code.'),
  labelVerifyCode: () => info(1070006, 'Verify code'),
  totpVerifierWrong: () => error(4000008, 'The provided authentication code is invalid, please try again.'),
  noTotpDevice: () => error(4000011, 'You have no TOTP device set up.'),
  lookupLoginLabel: () => info(1010007, 'Backup recovery code'),
  useLookup: () => info(1010010, 'Use backup recovery code'),
  revealLookup: () => info(1050007, 'Reveal backup recovery codes'),
  regenerateLookup: () => info(1050008, 'Generate new backup recovery codes'),
  lookupSecret: (secret: string) => info(1050009, secret, { secret }),
  lookupSecretsLabel: () => info(1050010, 'These are your back up recovery codes. Please keep them in a safe place!'),
  confirmLookup: () => info(1050011, 'Confirm backup recovery codes'),
  lookupSecretUsed: (usedAt: string, iso: string) =>
    info(1050014, `Secret was used at ${usedAt}`, { used_at: iso, used_at_unix: Math.floor(new Date(iso).getTime() / 1000) }),
  lookupSecretList: (secrets: string[], messages: UiText[]) => info(1050015, secrets.join(', '), { secrets: messages }),
  disableLookup: () => info(1050016, 'Disable this method'),
  lookupAlreadyUsed: () => error(4000012, 'This backup recovery code has already been used.'),
  noLookup: () => error(4000014, 'You have no backup recovery codes set up.'),
  lookupInvalid: () => error(4000016, 'The backup recovery code is not valid.'),
  labelPassword: () => info(1070001, 'Password'),
  labelGenerated: (title: string) => info(1070002, title, { title }),
  labelSave: () => info(1070003, 'Save'),
  labelSubmit: () => info(1070005, 'Submit'),
  labelEmail: () => info(1070007, 'Email'),
  labelResendCode: () => info(1070008, 'Resend code'),
  labelContinue: () => info(1070009, 'Continue'),
  labelRecoveryCode: () => info(1070010, 'Recovery code'),
  labelVerificationCode: () => info(1070011, 'Verification code'),
  verificationLinkSent: () =>
    info(
      1080001,
      'An email containing a verification link has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
    ),
  verificationCodeSent: () =>
    info(
      1080003,
      'An email containing a verification code has been sent to the email address you provided. If you have not received an email, check the spelling of the address and make sure to use the address you registered with.',
    ),
  verificationSuccessful: (): UiText => ({
    id: 1080002,
    text: 'You successfully verified your email address.',
    type: 'success',
  }),
  required: (property: string) => error(4000002, `Property ${property} is missing.`, { property }),
  invalidEmail: (value: string) => error(4000040, 'Enter a valid email address', { value }),
  maxLength: (max: number, actual: number) =>
    error(4000017, `length must be <= ${max}, but got ${actual}`, { max_length: max, actual_length: actual }),
  invalidCredentials: () =>
    error(
      4000006,
      'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
    ),
  duplicateCredentials: () =>
    error(4000007, 'An account with the same identifier (email, phone, username, ...) exists already.'),
  passwordTooSimilar: () =>
    error(4000031, 'The password can not be used because it is too similar to the identifier.'),
  passwordMinLength: (min: number, actual: number) =>
    error(4000032, `The password must be at least ${min} characters long, but got ${actual}.`, {
      min_length: min,
      actual_length: actual,
    }),
  passwordBreached: () => error(4000034, 'The password has been found in data breaches and must no longer be used.'),
  passwordMaxLength: (max: number, actual: number) =>
    error(4000033, `The password must be at most ${max} characters long, but got ${actual}.`, {
      max_length: max,
      actual_length: actual,
    }),
  flowExpired: (kind: string, expiredAgoMs: number, now: Date) =>
    error(
      ({ login: 4010001, registration: 4040001, settings: 4050001, recovery: 4060005, verification: 4070005 } as Record<string, number>)[kind] ?? 4010001,
      `The ${kind} flow expired ${minutes(expiredAgoMs)} minutes ago, please try again.`,
      { expired_at: new Date(now.getTime() - expiredAgoMs).toISOString() },
    ),
  noStrategy: (kind: 'login' | 'registration' | 'settings' | 'recovery' | 'verification') =>
    error(
      { login: 4010002, registration: 4010003, settings: 4010004, recovery: 4010005, verification: 4010006 }[kind],
      `Could not find a strategy to ${
        { login: 'log you in with', registration: 'sign you up with', settings: 'update your settings', recovery: 'recover your account with', verification: 'verify your account with' }[kind]
      }. Did you fill out the form correctly?`,
    ),
  verificationLinkInvalid: () =>
    error(4070001, 'The verification token is invalid or has already been used. Please retry the flow.'),
  recoveryLinkInvalid: () =>
    error(4060004, 'The recovery token is invalid or has already been used. Please retry the flow.'),
  recoveryCodeInvalid: () =>
    error(4060006, 'The recovery code is invalid or has already been used. Please try again.'),
  verificationCodeInvalid: () =>
    error(4070006, 'The verification code is invalid or has already been used. Please try again.'),
  retrySuccess: (kind: 'recovery' | 'verification') =>
    error(kind === 'recovery' ? 4060001 : 4070002, 'The request was already completed successfully and can not be retried.'),
};
