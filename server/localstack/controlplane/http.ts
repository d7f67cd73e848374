import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest, describeZodError, unauthorized } from './errors';
import type { CallerSession, ControlPlaneContext } from './types';

/** Validates a request body; a failure is a 400 whose reason names every bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, what = 'request body'): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw badRequest(describeZodError(result.error, what), {
      fields: z.flattenError(result.error).fieldErrors,
    });
  }
  return result.data;
}

export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const result = schema.safeParse(query);
  if (!result.success) throw badRequest(describeZodError(result.error, 'query parameters'));
  return result.data;
}

const uuid = z.uuid();

/** Path ids are UUIDs; anything else is a 400 naming the parameter (never a database error). */
export function pathId(req: FastifyRequest, name: string): string {
  const value = (req.params as Record<string, string | undefined>)[name];
  if (!uuid.safeParse(value).success) throw badRequest(`The path parameter "${name}" must be a UUID.`);
  return value!.toLowerCase();
}

export async function requireSession(ctx: ControlPlaneContext, req: FastifyRequest): Promise<CallerSession> {
  const session = await ctx.resolveSession(req);
  if (!session) throw unauthorized();
  return session;
}
