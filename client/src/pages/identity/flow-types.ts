import type {
  ContinueWith as OryContinueWith,
  GenericError,
  LoginFlow,
  RecoveryFlow,
  RegistrationFlow,
  SettingsFlow,
  VerificationFlow,
} from '@ory/client';

/** Ory's self-service flow objects as the console renders them: the SDK's own models (see CONTRACT.md §c). */
export type { UiContainer, UiNode, UiNodeAttributes, UiNodeInputAttributes, UiText } from '@ory/client';

export type FlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

/** Any of the five flows; the pages read what they share (`id`, `ui`, `return_to`, `state`). */
export type SelfServiceFlow = LoginFlow | RegistrationFlow | RecoveryFlow | VerificationFlow | SettingsFlow;

export type ContinueWith = OryContinueWith;

/** A refused flow request: Ory's error (`error.id` such as `session_already_available`) and where to go instead. */
export interface FlowErrorBody {
  error?: Partial<GenericError>;
  redirect_browser_to?: string;
}

export function isFlow(value: unknown): value is SelfServiceFlow {
  return typeof value === 'object' && value !== null && 'ui' in value && 'id' in value;
}
