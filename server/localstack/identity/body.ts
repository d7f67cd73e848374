import { z } from 'zod';
import { badBody } from './errors';

/** A submitted flow body, JSON or form: flat `traits.x` keys are nested under `traits`. */
const submitBody = z.looseObject({
  method: z.string().max(64).optional(),
  csrf_token: z.string().max(512).optional(),
  identifier: z.string().max(512).optional(),
  password: z.string().max(4096).optional(),
  email: z.string().max(512).optional(),
  code: z.string().max(64).optional(),
  traits: z.looseObject({ email: z.string().max(512).optional(), name: z.string().max(512).optional() }).optional(),
});
export type SubmitBody = z.infer<typeof submitBody>;

export function parseSubmitBody(raw: unknown): SubmitBody {
  const input: Record<string, unknown> =
    raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw badBody('The request body must be a JSON object or a form.');
  }
  for (const key of Object.keys(input)) {
    if (key.startsWith('traits.')) {
      const traits = (input.traits && typeof input.traits === 'object' ? input.traits : {}) as Record<string, unknown>;
      traits[key.slice('traits.'.length)] = input[key];
      input.traits = traits;
      delete input[key];
    }
  }
  const parsed = submitBody.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    throw badBody(`Invalid field "${field}": ${issue?.message ?? 'invalid value'}.`);
  }
  return parsed.data;
}
