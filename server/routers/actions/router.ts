import { TRPCError } from '@trpc/server';
import {
  HOOK_FLOWS,
  actionsGetInput,
  actionsLogInput,
  actionsLogOutput,
  actionsOutput,
  actionsSetInput,
  type ActionsView,
  type HookFlow,
  type HookInput,
  type HookView,
} from '../../../shared/schemas/actions';
import { projectProcedure, router } from '../../trpc/init';
import { type IdentityConfigRead, type Json, isObject, obj, readIdentityConfig, valueAt } from '../project-config/identity-config';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Where a list of hooks sits: a flow's `before`, its `after`, or its `after.<method>`. */
interface Slot {
  flow: HookFlow;
  timing: 'before' | 'after';
  method: string | null;
}
const slotPath = (s: Slot) => ['selfservice', 'flows', s.flow, s.timing, ...(s.method ? [s.method] : []), 'hooks'];
const slotId = (s: Slot) => `${s.flow}.${s.timing}.${s.method ?? '*'}`;

/** Every slot of the config that holds a list of hooks. */
function slotsOf(config: Json): Slot[] {
  const slots: Slot[] = [];
  for (const flow of HOOK_FLOWS) {
    if (Array.isArray(valueAt(config, slotPath({ flow, timing: 'before', method: null })))) slots.push({ flow, timing: 'before', method: null });
    const after = obj(valueAt(config, ['selfservice', 'flows', flow, 'after']));
    if (Array.isArray(after.hooks)) slots.push({ flow, timing: 'after', method: null });
    for (const [method, v] of Object.entries(after)) if (method !== 'hooks' && Array.isArray(obj(v).hooks)) slots.push({ flow, timing: 'after', method });
  }
  return slots;
}

const isWebHook = (entry: unknown): entry is Json => isObject(entry) && entry.hook === 'web_hook';

/** A hook URL as shown: a password in it is never read back. */
function shownUrl(raw: string): string {
  if (!URL.canParse(raw)) return raw;
  const url = new URL(raw);
  if (!url.password) return raw;
  url.password = 'REDACTED';
  return url.toString();
}

function viewOf(key: string, slot: Slot, entry: Json): HookView {
  const c = obj(entry.config);
  const auth = obj(c.auth);
  const authConfig = obj(auth.config);
  const response = obj(c.response);
  return {
    key,
    flow: slot.flow,
    timing: slot.timing,
    method: slot.method,
    url: shownUrl(str(c.url)),
    httpMethod: (str(c.method) || 'POST').toUpperCase(),
    body: str(c.body),
    auth:
      auth.type === 'basic_auth'
        ? { type: 'basic_auth', user: str(authConfig.user), hasSecret: str(authConfig.password) !== '' }
        : auth.type === 'api_key'
          ? { type: 'api_key', name: str(authConfig.name), in: authConfig.in === 'cookie' ? 'cookie' : 'header', hasSecret: str(authConfig.value) !== '' }
          : { type: 'none', hasSecret: false },
    canInterrupt: c.can_interrupt === true || response.parse === true,
    ignoreResponse: response.ignore === true,
  };
}

/** The web hooks of a config, each keyed by its slot and place (`registration.after.password.0`). */
function webHooks(config: Json): { key: string; slot: Slot; entry: Json }[] {
  return slotsOf(config).flatMap((slot) =>
    (valueAt(config, slotPath(slot)) as unknown[]).flatMap((entry, i) => (isWebHook(entry) ? [{ key: `${slotId(slot)}.${i}`, slot, entry }] : [])),
  );
}

const view = (read: IdentityConfigRead): ActionsView => ({ revisionId: read.revisionId, hooks: webHooks(read.config).map((h) => viewOf(h.key, h.slot, h.entry)) });

/** The Kratos `web_hook` entry of an input, over the entry it edits (fields the page does not show survive). */
function entryOf(input: HookInput, previous: Json | undefined): Json {
  const prev = obj(previous?.config);
  const prevAuth = obj(prev.auth);
  const prevSecret = (field: 'password' | 'value') => (prevAuth.type === input.auth.type ? str(obj(prevAuth.config)[field]) : '');
  // The page shows a URL's password redacted: sent back unchanged, the stored URL stays.
  const url = typeof prev.url === 'string' && shownUrl(prev.url) === input.url ? prev.url : input.url;
  const config: Json = { ...prev, url, method: input.httpMethod, can_interrupt: input.canInterrupt };
  if (input.body) config.body = input.body;
  else delete config.body;
  const response: Json = { ...obj(prev.response), ignore: input.ignoreResponse };
  if (!input.canInterrupt || input.ignoreResponse) delete response.parse;
  config.response = response;
  if (input.auth.type === 'none') delete config.auth;
  else if (input.auth.type === 'basic_auth') {
    const password = input.auth.password ?? prevSecret('password');
    if (!password) throw new TRPCError({ code: 'BAD_REQUEST', message: `Enter the basic_auth password for the hook calling ${input.url}.` });
    config.auth = { type: 'basic_auth', config: { user: input.auth.user, password } };
  } else {
    const value = input.auth.value ?? prevSecret('value');
    if (!value) throw new TRPCError({ code: 'BAD_REQUEST', message: `Enter the API key value for the hook calling ${input.url}.` });
    config.auth = { type: 'api_key', config: { name: input.auth.name, value, in: input.auth.in } };
  }
  return { ...(previous ?? {}), hook: 'web_hook', config };
}

type Op = { op: 'add'; path: string; value: unknown };
const pointer = (path: readonly string[]) => `/services/identity/config/${path.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/**
 * The JSON patch that makes the config's web hooks the given list: each slot keeps its other hooks (Ory's
 * `session`, `show_verification_ui`, …) in place and gets its web hooks in the order given; slots that do
 * not change are not touched.
 */
function patchOf(read: IdentityConfigRead, hooks: HookInput[]): Op[] {
  const existing = new Map(webHooks(read.config).map((h) => [h.key, h.entry]));
  for (const h of hooks) {
    if (h.key && !existing.has(h.key)) {
      throw new TRPCError({ code: 'CONFLICT', message: 'A hook you edited is no longer in the configuration. Reload to see the current hooks, then make your change again.' });
    }
  }
  const wanted = new Map<string, { slot: Slot; entries: Json[] }>();
  for (const slot of slotsOf(read.config)) wanted.set(slotId(slot), { slot, entries: [] });
  for (const h of hooks) {
    const slot: Slot = { flow: h.flow, timing: h.timing, method: h.timing === 'before' ? null : h.method };
    const at = wanted.get(slotId(slot)) ?? { slot, entries: [] };
    at.entries.push(entryOf(h, h.key ? existing.get(h.key) : undefined));
    wanted.set(slotId(slot), at);
  }
  const ops: Op[] = [];
  if (!read.hasIdentity) ops.push({ op: 'add', path: '/services/identity', value: { config: {} } });
  else if (!read.hasConfig) ops.push({ op: 'add', path: '/services/identity/config', value: {} });
  const draft: Json = structuredClone(read.config);
  for (const { slot, entries } of wanted.values()) {
    const path = slotPath(slot);
    const current = valueAt(draft, path);
    const others = Array.isArray(current) ? current.filter((e) => !isWebHook(e)) : [];
    const next = [...others, ...entries];
    if (JSON.stringify(next) === JSON.stringify(current ?? [])) continue;
    let at = draft;
    for (const [i, part] of path.slice(0, -1).entries()) {
      if (!isObject(at[part])) {
        at[part] = {};
        ops.push({ op: 'add', path: pointer(path.slice(0, i + 1)), value: {} });
      }
      at = at[part] as Json;
    }
    at.hooks = next;
    ops.push({ op: 'add', path: pointer(path), value: next });
  }
  return ops;
}

const stale = () =>
  new TRPCError({ code: 'CONFLICT', message: 'The project was changed elsewhere since you opened it. Reload to see the current hooks, then make your change again.' });

/**
 * Identity actions (spec §2 `/developers/actions`): the project's `web_hook` hooks before and after each
 * self-service flow, written as a JSON patch on the revision they were read from, and the log of their calls.
 */
export const actionsRouter = router({
  get: projectProcedure('backoffice.project.read')
    .input(actionsGetInput)
    .output(actionsOutput)
    .query(async ({ ctx }) => view(await readIdentityConfig(ctx, ctx.projectId))),

  set: projectProcedure('backoffice.project.write')
    .input(actionsSetInput)
    .output(actionsOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readIdentityConfig(ctx, ctx.projectId);
      if (input.revisionId && input.revisionId !== read.revisionId) throw stale();
      const ops = patchOf(read, input.hooks);
      if (ops.length > 0) await ctx.deps.backoffice.patchProjectWithRevision(ctx.call, ctx.projectId, read.revisionId, ops);
      return view(await readIdentityConfig(ctx, ctx.projectId));
    }),

  log: projectProcedure('backoffice.project.read')
    .input(actionsLogInput)
    .output(actionsLogOutput)
    .query(async ({ ctx, input }) => {
      const log = await ctx.deps.backoffice.hookCalls(ctx.call, ctx.projectId, input.pageToken);
      return { calls: log.calls, ...(log.next_page_token ? { nextPageToken: log.next_page_token } : {}) };
    }),
});
