import { configAt, type JsonObject } from '../kernel/tenant-config';

export type HookFlow = 'login' | 'registration' | 'settings' | 'recovery' | 'verification';
export const HOOK_FLOWS: readonly HookFlow[] = ['registration', 'login', 'settings', 'recovery', 'verification'];

/** One `web_hook` of a project's identity config, as Kratos' `selfServiceWebHook` names its fields. */
export interface WebHook {
  /** Where it sits: `selfservice.flows.registration.after.password.hooks.0`. */
  path: string;
  flow: HookFlow;
  phase: 'before' | 'after';
  /** The credential method of a method-scoped `after` hook, or null. */
  method: string | null;
  url: string;
  httpMethod: string;
  headers: Record<string, string>;
  auth: { type: 'basic_auth'; user: string; password: string } | { type: 'api_key'; name: string; value: string; in: 'header' | 'cookie' } | null;
  /** `can_interrupt` or `response.parse`: a 4xx answer with Ory's messages stops the flow. */
  interrupts: boolean;
  /** `response.ignore`: called without waiting, its answer never matters. */
  ignore: boolean;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function authOf(v: unknown): WebHook['auth'] {
  if (!isObject(v) || !isObject(v.config)) return null;
  if (v.type === 'basic_auth') return { type: 'basic_auth', user: str(v.config.user), password: str(v.config.password) };
  if (v.type === 'api_key') return { type: 'api_key', name: str(v.config.name), value: str(v.config.value), in: v.config.in === 'cookie' ? 'cookie' : 'header' };
  return null;
}

function hooksAt(config: JsonObject, keys: string[], flow: HookFlow, phase: 'before' | 'after', method: string | null): WebHook[] {
  const list = configAt(config, ...keys, 'hooks');
  if (!Array.isArray(list)) return [];
  const out: WebHook[] = [];
  list.forEach((entry, i) => {
    if (!isObject(entry) || entry.hook !== 'web_hook' || !isObject(entry.config)) return;
    const c = entry.config;
    const response = isObject(c.response) ? c.response : {};
    const headers = isObject(c.headers) ? Object.fromEntries(Object.entries(c.headers).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
    if (typeof c.url !== 'string' || c.url === '') return;
    out.push({
      path: [...keys, 'hooks', String(i)].join('.'),
      flow,
      phase,
      method,
      url: c.url,
      httpMethod: (str(c.method) || 'POST').toUpperCase(),
      headers,
      auth: authOf(c.auth),
      interrupts: c.can_interrupt === true || response.parse === true,
      ignore: response.ignore === true,
    });
  });
  return out;
}

/** The `before` web hooks of a flow kind. */
export const beforeHooks = (config: JsonObject, flow: HookFlow): WebHook[] => hooksAt(config, ['selfservice', 'flows', flow, 'before'], flow, 'before', null);

/** The `after` web hooks of a flow for one credential method: `after.<method>.hooks`, then the flow-wide `after.hooks`. */
export const afterHooks = (config: JsonObject, flow: HookFlow, method: string): WebHook[] => [
  ...hooksAt(config, ['selfservice', 'flows', flow, 'after', method], flow, 'after', method),
  ...hooksAt(config, ['selfservice', 'flows', flow, 'after'], flow, 'after', null),
];

/** Every web hook URL of a config, wherever it sits (for the check that they are reachable). */
export function allHookUrls(config: JsonObject): string[] {
  const urls: string[] = [];
  for (const flow of HOOK_FLOWS) {
    urls.push(...beforeHooks(config, flow).map((h) => h.url));
    const after = configAt(config, 'selfservice', 'flows', flow, 'after');
    const methods = isObject(after) ? Object.keys(after).filter((k) => k !== 'hooks' && k !== 'default_browser_return_url') : [];
    urls.push(...hooksAt(config, ['selfservice', 'flows', flow, 'after'], flow, 'after', null).map((h) => h.url));
    for (const m of methods) urls.push(...hooksAt(config, ['selfservice', 'flows', flow, 'after', m], flow, 'after', m).map((h) => h.url));
  }
  return urls;
}
