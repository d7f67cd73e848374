/**
 * Destructive actions ask the user to type the target's name. The typed text confirms when it equals the
 * name once surrounding spaces are dropped; case and inner spaces count. The client enables its button
 * and the server accepts the call by this one rule.
 */
export function confirmsName(typed: string, name: string): boolean {
  return typed.trim() === name;
}

export const CONFIRM_NAME_MISMATCH = 'Type the project name exactly to confirm deletion';
