import { z } from 'zod';
import { badRequest, describeZodError } from './errors';

/**
 * Validates a document the server built (a configuration after a JSON patch); a failure is a 400 whose
 * reason names every bad field. Request input is validated by the route's schemas (`route.ts`).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw badRequest(describeZodError(result.error, what), {
      fields: z.flattenError(result.error).fieldErrors,
    });
  }
  return result.data;
}
