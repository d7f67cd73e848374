import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { z } from 'zod';
import { locate, systemLookup, type Lookup } from '../courier/network';
import type { Queryable } from '../db/types';
import { OryError } from '../kernel/errors';
import type { HookStop } from '../kernel/identity-deps';
import type { WebHook } from './config';
import { identityHookCalls } from './schema';

const TIMEOUT_MS = 10_000;
/** At most this much of an answer is read (Ory reads 5 MB; an interrupt body is a few messages). */
const MAX_ANSWER = 1 << 20;

/** Ory's interrupt answer: messages per instance pointer (`#/traits/email`, `#/` for the whole form). */
const interruptBody = z.object({
  messages: z.array(
    z.object({
      instance_ptr: z.string().optional(),
      messages: z.array(z.object({ id: z.number().int(), text: z.string(), type: z.string().optional(), context: z.record(z.string(), z.unknown()).optional() })),
    }),
  ),
});

/** The messages an interrupting hook's answer puts on the flow, each with the pointer it names. */
export type HookMessages = HookStop;

export interface HookRunDeps {
  db: Queryable;
  now: () => Date;
  log: Logger;
  lookup?: Lookup;
}

interface Answer {
  code: number | null;
  body: string;
  error: string | null;
}

/** The URL as logged and shown: no user info and no query (either may carry a secret). */
export function shownUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '';
  }
}

function headersOf(hook: WebHook, body: string | null): Record<string, string> {
  const headers: Record<string, string> = { ...hook.headers, 'user-agent': 'ory-kratos-webhook', accept: 'application/json' };
  if (body !== null) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (hook.auth?.type === 'basic_auth') headers.authorization = `Basic ${Buffer.from(`${hook.auth.user}:${hook.auth.password}`).toString('base64')}`;
  if (hook.auth?.type === 'api_key') {
    if (hook.auth.in === 'header') headers[hook.auth.name.toLowerCase()] = hook.auth.value;
    else headers.cookie = `${hook.auth.name}=${hook.auth.value}`;
  }
  return headers;
}

/** One request to the hook at the one address its host resolved to (loopback only); redirects are not followed. */
async function send(hook: WebHook, body: string | null, lookup: Lookup): Promise<Answer> {
  let url: URL;
  try {
    url = new URL(hook.url);
  } catch {
    return { code: null, body: '', error: 'The hook’s URL is not a URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { code: null, body: '', error: 'The hook’s URL must be http or https.' };
  const located = await locate(url.hostname.replace(/^\[|\]$/g, ''), lookup).catch(() => null);
  if (!located) return { code: null, body: '', error: 'The hook’s host name does not resolve.' };
  if (located.where === 'elsewhere') return { code: null, body: '', error: 'The local stack calls hooks on this machine only: the URL is not on it.' };
  const pinned: LookupFunction = (_h, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: located.address, family: located.family }]);
    else callback(null, located.address, located.family);
  };
  return new Promise((resolve) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: hook.httpMethod, headers: headersOf(hook, body), lookup: pinned, signal: AbortSignal.timeout(TIMEOUT_MS) },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_ANSWER) chunks.push(c);
        });
        res.on('end', () => resolve({ code: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), error: null }));
        res.on('error', () => resolve({ code: res.statusCode ?? null, body: '', error: 'The answer broke off.' }));
      },
    );
    // One text for every connection failure: the log does not tell a project which ports of this machine are open.
    req.on('error', () => resolve({ code: null, body: '', error: 'Could not connect to the hook.' }));
    req.end(body ?? undefined);
  });
}

function messagesOf(answer: string): HookMessages | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return null;
  }
  const ok = interruptBody.safeParse(parsed);
  if (!ok.success || ok.data.messages.length === 0) return null;
  return ok.data.messages.map((m) => ({
    pointer: m.instance_ptr ?? '#/',
    messages: m.messages.map((t) => ({ id: t.id, text: t.text, type: t.type === 'error' ? ('error' as const) : ('info' as const), ...(t.context ? { context: t.context } : {}) })),
  }));
}

async function callOne(deps: HookRunDeps, nid: string, hook: WebHook, payload: unknown): Promise<{ ok: boolean; stop: HookMessages | null }> {
  const body = hook.httpMethod === 'GET' || hook.httpMethod === 'HEAD' ? null : JSON.stringify(payload);
  const started = performance.now();
  const answer = await send(hook, body, deps.lookup ?? systemLookup);
  const latency = Math.round(performance.now() - started);
  const ok = answer.code !== null && answer.code >= 200 && answer.code < 300;
  const stop = !ok && hook.interrupts && answer.code !== null && answer.code >= 400 && answer.code < 500 ? messagesOf(answer.body) : null;
  await deps.db.orm.insert(identityHookCalls).values({
    id: randomUUID(),
    project_id: nid,
    flow: hook.flow,
    phase: hook.phase,
    auth_method: hook.method,
    hook_path: hook.path,
    url: shownUrl(hook.url),
    http_method: hook.httpMethod,
    status: ok ? 'success' : 'failed',
    response_code: answer.code,
    latency_ms: latency,
    interrupted: stop !== null,
    error: ok ? null : (answer.error ?? `The hook answered ${answer.code}.`),
    at: deps.now(),
  });
  if (!ok) deps.log.warn({ nid, hook: hook.path, code: answer.code }, 'identity web hook failed');
  return { ok, stop };
}

/**
 * Calls the hooks in order with the flow's context as the JSON body and logs each call. A hook that may
 * interrupt (`can_interrupt` or `response.parse`) and answers 4xx with Ory's messages stops the run: its
 * messages are returned for the flow to show; any other failure of such a hook refuses the flow with 502.
 * A failing hook that may not interrupt is logged and the flow goes on; hooks with `response.ignore` are
 * not waited for.
 */
export async function runWebHooks(deps: HookRunDeps, nid: string, hooks: WebHook[], payload: unknown): Promise<HookMessages | null> {
  for (const hook of hooks) {
    if (hook.ignore) {
      void callOne(deps, nid, hook, payload).catch((err: unknown) => deps.log.error({ err, hook: hook.path }, 'identity web hook log failed'));
      continue;
    }
    const { ok, stop } = await callOne(deps, nid, hook, payload);
    if (stop) return stop;
    // A hook that may interrupt and failed without Ory's messages stops the flow as Kratos does: 502.
    if (!ok && hook.interrupts) {
      throw new OryError(502, { reason: 'A third-party upstream service responded improperly. Please try again later.', message: 'webhook failed' });
    }
  }
  return null;
}
