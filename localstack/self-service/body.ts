import { z } from 'zod';

/** A submitted flow body, JSON or form: flat `traits.x` keys are nested under `traits`. */
const submitBody = z.looseObject({
  method: z.string().max(64).optional(),
  csrf_token: z.string().max(512).optional(),
  identifier: z.string().max(512).optional(),
  password: z.string().max(4096).optional(),
  email: z.string().max(512).optional(),
  code: z.string().max(64).optional(),
  resend: z.string().max(16).optional(),
  address: z.string().max(512).optional(),
  totp_code: z.string().max(64).optional(),
  totp_unlink: z.union([z.boolean(), z.string().max(8)]).optional(),
  lookup_secret: z.string().max(64).optional(),
  passkey_register: z.string().max(16384).optional(),
  passkey_login: z.string().max(16384).optional(),
  passkey_settings_register: z.string().max(16384).optional(),
  passkey_remove: z.string().max(1024).optional(),
  webauthn_register: z.string().max(16384).optional(),
  webauthn_register_displayname: z.string().max(256).optional(),
  webauthn_remove: z.string().max(1024).optional(),
  webauthn_login: z.string().max(16384).optional(),
  id_token: z.string().max(16384).optional(),
  id_token_nonce: z.string().max(512).optional(),
  lookup_secret_reveal: z.union([z.boolean(), z.string().max(8)]).optional(),
  lookup_secret_regenerate: z.union([z.boolean(), z.string().max(8)]).optional(),
  lookup_secret_confirm: z.union([z.boolean(), z.string().max(8)]).optional(),
  lookup_secret_disable: z.union([z.boolean(), z.string().max(8)]).optional(),
  traits: z.looseObject({ email: z.string().max(512).optional(), name: z.string().max(512).optional() }).optional(),
  upstream_parameters: z.record(z.string().max(64), z.string().max(2048), { error: 'upstream_parameters must be an object of strings.' }).optional(),
}, { error: 'The request body must be a JSON object or a form.' });
export type SubmitBody = z.infer<typeof submitBody>;

/** Form keys nested by their prefix (`traits.x`, `upstream_parameters.x`), as Kratos' form decoder does. */
const NESTED = ['traits', 'upstream_parameters'];

/** `traits.x` (and `upstream_parameters.x`) form keys nested; a missing body is an empty one (Kratos then names what is missing). */
function nestTraits(raw: unknown): unknown {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const input: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of Object.keys(input)) {
    const prefix = NESTED.find((p) => key.startsWith(`${p}.`));
    if (prefix) {
      const nested = (input[prefix] && typeof input[prefix] === 'object' ? { ...(input[prefix] as object) } : {}) as Record<string, unknown>;
      nested[key.slice(prefix.length + 1)] = input[key];
      input[prefix] = nested;
      delete input[key];
    }
  }
  return input;
}

/** The body schema of every flow submission route (JSON or form), as the route helper validates it. */
export const submitBodySchema = z.preprocess(nestTraits, submitBody);
