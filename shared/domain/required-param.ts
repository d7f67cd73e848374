import { requiredParameterMessage } from '../messages';

/** The error thrown when a call is made without one of its path parameters. */
export class RequiredParameterError extends Error {
  override readonly name = 'RequiredParameterError';
  constructor(
    readonly parameter: string,
    readonly operation: string,
  ) {
    super(requiredParameterMessage(parameter, operation));
  }
}

/**
 * Spec §5: every API call requires its path parameters. Throws for the first parameter (in the
 * object's key order) whose value is null or undefined. Empty strings are not "missing" here: the
 * input schemas refuse them with a clearer message.
 *
 * @example assertRequiredParams('getWorkspace', { workspace }) // 'Required parameter workspace was null or undefined when calling getWorkspace'
 */
export function assertRequiredParams<T extends Record<string, unknown>>(
  operation: string,
  params: T,
): asserts params is { [K in keyof T]: NonNullable<T[K]> } {
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) throw new RequiredParameterError(name, operation);
  }
}
