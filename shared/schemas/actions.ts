import { z } from 'zod';
import { uuidSchema } from './common';
import { authMethodSchema, hookResultSchema } from './enums';

/*
 * Identity actions (spec §2 `/developers/actions`): Kratos' `web_hook` hooks of a project's identity config,
 * `selfservice.flows.<flow>.before.hooks`, `.after.hooks` and `.after.<method>.hooks`.
 */

export const HOOK_FLOWS = ['registration', 'login', 'settings', 'recovery', 'verification'] as const;
export const HOOK_TIMINGS = ['before', 'after'] as const;
/** The credential methods an `after` hook can be scoped to (Kratos' `after.<method>.hooks`). */
export const HOOK_AUTH_METHODS = ['password', 'code', 'oidc', 'webauthn', 'passkey', 'totp', 'lookup_secret', 'profile'] as const;
export const HOOK_HTTP_METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;

export type HookFlow = (typeof HOOK_FLOWS)[number];

const url = z
  .string()
  .trim()
  .min(1, { error: 'Enter the URL the hook calls.' })
  .max(2048, { error: 'A URL has at most 2048 characters.' })
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), { error: 'Enter the URL as an http:// or https:// URL.' });
const field = (what: string, max = 256) => z.string().min(1, { error: `Enter the ${what}.` }).max(max, { error: `The ${what} has at most ${max} characters.` });
const secret = (what: string) => z.string().min(1, { error: `Enter the ${what}.` }).max(1024, { error: `The ${what} has at most 1024 characters.` }).optional();

/** An auth as entered: a secret left out keeps the one the hook already has. */
export const hookAuthInput = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('none') }),
    z.object({ type: z.literal('basic_auth'), user: field('user name'), password: secret('password') }),
    z.object({ type: z.literal('api_key'), name: field('API key name', 128).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'An API key name is a header or cookie name: letters, digits and - _ . only.' }), value: secret('API key value'), in: z.enum(['header', 'cookie']) }),
  ],
  { error: 'Choose no auth, basic_auth or api_key.' },
);

export const hookInput = z
  .object({
    /** The hook being edited (its `key` from `get`); absent for a new one. */
    key: z.string().min(1).max(256).optional(),
    flow: z.enum(HOOK_FLOWS, { error: 'Choose registration, login, settings, recovery or verification.' }),
    timing: z.enum(HOOK_TIMINGS, { error: 'Choose before or after.' }),
    /** For `after`: the credential method, or null for every method. */
    method: z.enum(HOOK_AUTH_METHODS, { error: 'Choose a sign-in method or all methods.' }).nullable(),
    url,
    httpMethod: z.enum(HOOK_HTTP_METHODS, { error: 'Choose POST, PUT, PATCH, GET or DELETE.' }),
    /** Ory's Jsonnet body as a URI (`base64://…`, `https://…`), or empty for none. */
    body: z
      .string()
      .max(65_536, { error: 'The body template has at most 65536 characters.' })
      .refine((v) => v === '' || /^(https?|file|base64):\/\//.test(v), { error: 'Give the body template as a base64://, https:// or file:// URI.' }),
    auth: hookAuthInput,
    canInterrupt: z.boolean(),
    ignoreResponse: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.timing === 'before' && v.method !== null) ctx.addIssue({ code: 'custom', path: ['method'], message: 'A before hook runs for the whole flow: leave the method empty.' });
    if (v.ignoreResponse && v.canInterrupt) ctx.addIssue({ code: 'custom', path: ['ignoreResponse'], message: 'A hook whose answer is ignored cannot interrupt the flow: turn one of them off.' });
  });
export type HookInput = z.infer<typeof hookInput>;

/** A hook as shown: secrets are never sent back, only whether one is set. */
export const hookView = z.object({
  key: z.string(),
  flow: z.enum(HOOK_FLOWS),
  timing: z.enum(HOOK_TIMINGS),
  method: z.string().nullable(),
  url: z.string(),
  httpMethod: z.string(),
  body: z.string(),
  auth: z.object({ type: z.union([z.literal('none'), authMethodSchema]), user: z.string().optional(), name: z.string().optional(), in: z.enum(['header', 'cookie']).optional(), hasSecret: z.boolean() }),
  canInterrupt: z.boolean(),
  ignoreResponse: z.boolean(),
});
export type HookView = z.infer<typeof hookView>;

export const actionsGetInput = z.object({ projectId: uuidSchema });
export const actionsOutput = z.object({ revisionId: z.string(), hooks: z.array(hookView) });
export type ActionsView = z.infer<typeof actionsOutput>;
export const actionsSetInput = z.object({
  projectId: uuidSchema,
  revisionId: z.string().min(1).max(64).optional(),
  hooks: z.array(hookInput).max(50, { error: 'A project has at most 50 web hooks.' }),
});

// ---- the call log (the local stack's own call, no Ory API) ----
export const hookCallSchema = z.object({
  id: z.string(),
  flow: z.enum(HOOK_FLOWS),
  timing: z.enum(HOOK_TIMINGS),
  method: z.string().nullable(),
  hook: z.string(),
  url: z.string(),
  http_method: z.string(),
  status: hookResultSchema,
  response_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  interrupted: z.boolean(),
  error: z.string().nullable(),
  at: z.string(),
});
export type HookCall = z.infer<typeof hookCallSchema>;
export const hookCallLogSchema = z.object({ calls: z.array(hookCallSchema), next_page_token: z.string().optional() });
export const hookCallLogQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(100).optional(),
  page_token: z.string().min(1).max(512).optional(),
});
export const actionsLogInput = z.object({ projectId: uuidSchema, pageToken: z.string().min(1).max(512).optional() });
export const actionsLogOutput = z.object({ calls: z.array(hookCallSchema), nextPageToken: z.string().optional() });
