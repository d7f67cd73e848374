import { errorText, fieldErrors } from './errors';

/** True when the typed name differs from the saved one (surrounding spaces do not count). */
export function isNameChanged(typed: string, saved: string): boolean {
  return typed.trim() !== saved;
}

/** The message shown under a name field when saving it failed: the field's own error, else the error's text. */
export function nameErrorMessage(error: unknown, field = 'name'): string {
  return fieldErrors(error)[field] ?? errorText(error) ?? 'The name could not be saved.';
}
