import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { HttpTarget } from './target';

/**
 * What Kratos' default `request_config.body` (a jsonnet template) renders from a message: the recipient, the
 * template type, the codes and links of the template data (null when the template has none), subject and body.
 * The local stack does not evaluate jsonnet, so every request carries this payload.
 */
export function defaultPayload(message: {
  recipient: string;
  template_type: string;
  subject: string;
  body: string;
  template_data: Record<string, unknown> | null;
}): Record<string, unknown> {
  const data = message.template_data ?? {};
  const pick = (key: string) => (key in data ? data[key] : null);
  return {
    recipient: message.recipient,
    template_type: message.template_type,
    to: pick('to'),
    recovery_code: pick('recovery_code'),
    recovery_url: pick('recovery_url'),
    verification_url: pick('verification_url'),
    verification_code: pick('verification_code'),
    subject: message.subject,
    body: message.body,
  };
}

/**
 * What the SMS channel's default body (`function(ctx) { To: ctx.recipient, Body: ctx.body }`, the one the
 * console stores) renders: the phone number and the text. Every text message carries it, whatever body is
 * configured, as the local stack evaluates no jsonnet.
 */
export function smsPayload(message: { recipient: string; body: string }): Record<string, unknown> {
  return { To: message.recipient, Body: message.body };
}

const FORM = 'application/x-www-form-urlencoded';

function encode(payload: Record<string, unknown>, contentType: string): string {
  if (contentType.toLowerCase().startsWith(FORM)) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(payload)) if (v !== null && v !== undefined) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    return form.toString();
  }
  return JSON.stringify(payload);
}

/**
 * Sends Ory's `request_config` request: its method (POST by default) to its URL, its headers (JSON unless
 * they name another content type), its auth (basic_auth, or api_key in a header or cookie) and the payload.
 * The connection goes to `address`, resolved beforehand; the URL's host stays the Host header and the TLS
 * server name. Redirects are not followed. Resolves on a 2xx answer, rejects with the reason otherwise.
 */
export function sendHttp(target: HttpTarget, address: string, family: 4 | 6, payload: Record<string, unknown>, timeoutMs: number): Promise<void> {
  const headers: Record<string, string> = { ...target.headers };
  const contentTypeKey = Object.keys(headers).find((k) => k.toLowerCase() === 'content-type');
  if (!contentTypeKey) headers['Content-Type'] = 'application/json';
  const contentType = headers[contentTypeKey ?? 'Content-Type'] ?? 'application/json';
  if (target.auth?.type === 'basic_auth') {
    headers.Authorization = `Basic ${Buffer.from(`${target.auth.user}:${target.auth.password}`).toString('base64')}`;
  } else if (target.auth?.type === 'api_key') {
    if (target.auth.in === 'cookie') headers.Cookie = `${target.auth.name}=${target.auth.value}`;
    else headers[target.auth.name] = target.auth.value;
  }
  const body = target.method === 'TRACE' ? null : encode(payload, contentType);
  if (body !== null) headers['Content-Length'] = String(Buffer.byteLength(body));
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const options: RequestOptions = {
    method: target.method,
    hostname: target.host,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    headers,
    lookup,
    signal: AbortSignal.timeout(timeoutMs),
  };
  return new Promise<void>((resolve, reject) => {
    const req = (target.url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res) => {
      res.resume();
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new Error(`the endpoint answered ${status}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
