import { configAt, type JsonObject } from '../kernel/tenant-config';

/** Kratos' `courier.smtp.from_address` default. */
export const DEFAULT_FROM_ADDRESS = 'no-reply@ory.kratos.sh';

/**
 * A project's SMTP server, read as Kratos reads `courier.smtp.connection_uri`: `smtps://` is implicit TLS;
 * `smtp://` requires STARTTLS unless `disable_starttls=true`; `skip_ssl_verify=true` accepts any certificate;
 * `server_name` names the certificate's host (default: the URI's host). Without a port, 587 and 465.
 */
export interface SmtpTarget {
  kind: 'smtp';
  host: string;
  port: number;
  implicitTls: boolean;
  startTls: boolean;
  skipVerify: boolean;
  serverName: string;
  user: string;
  password: string;
  from: { address: string; name: string };
  headers: Record<string, string>;
  localName: string;
}

export type HttpAuth = { type: 'basic_auth'; user: string; password: string } | { type: 'api_key'; name: string; value: string; in: 'header' | 'cookie' };

/** An HTTP endpoint of Ory's `request_config` (`courier.http.request_config`, or the `sms` channel's). */
export interface HttpTarget {
  kind: 'http' | 'sms';
  url: URL;
  host: string;
  port: number;
  method: string;
  headers: Record<string, string>;
  auth: HttpAuth | null;
  /** The configured jsonnet body (`base64://…`, `file://…`), when there is one. */
  body: string | null;
}

export type DeliveryTarget = { kind: 'mailbox' } | SmtpTarget | HttpTarget | { kind: 'invalid'; reason: string };

const obj = (v: unknown): JsonObject => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : {});

function stringMap(v: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(obj(v)).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');
const truthy = (v: string | null) => v !== null && /^(1|t|true)$/i.test(v);

function smtpTarget(uri: string, smtp: JsonObject): SmtpTarget | { kind: 'invalid'; reason: string } {
  const invalid = { kind: 'invalid' as const, reason: 'The SMTP connection URI is not a valid smtp:// or smtps:// URL.' };
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return invalid;
  }
  if ((u.protocol !== 'smtp:' && u.protocol !== 'smtps:') || !u.hostname) return invalid;
  const implicitTls = u.protocol === 'smtps:';
  const host = bare(u.hostname);
  const from = configAt(smtp, 'from_address');
  const fromName = configAt(smtp, 'from_name');
  const localName = configAt(smtp, 'local_name');
  return {
    kind: 'smtp',
    host,
    port: u.port ? Number(u.port) : implicitTls ? 465 : 587,
    implicitTls,
    startTls: !implicitTls && !truthy(u.searchParams.get('disable_starttls')),
    skipVerify: truthy(u.searchParams.get('skip_ssl_verify')),
    serverName: u.searchParams.get('server_name') || host,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    from: { address: typeof from === 'string' && from ? from : DEFAULT_FROM_ADDRESS, name: typeof fromName === 'string' ? fromName : '' },
    headers: stringMap(configAt(smtp, 'headers')),
    localName: typeof localName === 'string' && localName ? localName : 'localhost',
  };
}

function httpAuth(auth: JsonObject, what: string): HttpAuth | null | { invalid: string } {
  const type = auth.type;
  const config = obj(auth.config);
  if (type === undefined || type === '') return null;
  if (type === 'basic_auth') {
    if (typeof config.user !== 'string' || typeof config.password !== 'string') return { invalid: `The ${what}’s basic_auth needs a user and a password.` };
    return { type, user: config.user, password: config.password };
  }
  if (type === 'api_key') {
    if (typeof config.name !== 'string' || typeof config.value !== 'string') return { invalid: `The ${what}’s api_key needs a name and a value.` };
    return { type, name: config.name, value: config.value, in: config.in === 'cookie' ? 'cookie' : 'header' };
  }
  return { invalid: `The ${what}’s auth type must be basic_auth or api_key.` };
}

function httpTarget(kind: 'http' | 'sms', request: JsonObject, what: string): HttpTarget | { kind: 'invalid'; reason: string } {
  const invalid = { kind: 'invalid' as const, reason: `The ${what} URL is not a valid http(s) URL.` };
  let url: URL;
  try {
    url = new URL(String(request.url));
  } catch {
    return invalid;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return invalid;
  const auth = httpAuth(obj(request.auth), what);
  if (auth && 'invalid' in auth) return { kind: 'invalid', reason: auth.invalid };
  const method = typeof request.method === 'string' && request.method ? request.method.toUpperCase() : 'POST';
  return {
    kind,
    url,
    host: bare(url.hostname),
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    method,
    headers: stringMap(request.headers),
    auth,
    body: typeof request.body === 'string' && request.body ? request.body : null,
  };
}

/**
 * Where a tenant's config sends a message: email by `courier.delivery_strategy` (`smtp`, the default, with
 * `courier.smtp.connection_uri`; or `http` with `courier.http.request_config`), text messages by the `sms`
 * entry of `courier.channels`. Without one, the local mailbox.
 */
export function deliveryTarget(config: JsonObject, type: string): DeliveryTarget {
  if (type === 'phone') {
    const channels = configAt(config, 'courier', 'channels');
    const sms = Array.isArray(channels) ? channels.find((c) => obj(c).id === 'sms') : undefined;
    const request = obj(obj(sms).request_config);
    if (typeof request.url !== 'string' || request.url === '') return { kind: 'mailbox' };
    return httpTarget('sms', request, 'SMS channel’s request');
  }
  if (configAt(config, 'courier', 'delivery_strategy') === 'http') {
    const request = obj(configAt(config, 'courier', 'http', 'request_config'));
    if (typeof request.url !== 'string' || request.url === '') return { kind: 'mailbox' };
    return httpTarget('http', request, 'HTTP delivery');
  }
  const smtp = obj(configAt(config, 'courier', 'smtp'));
  const uri = smtp.connection_uri;
  if (typeof uri !== 'string' || uri === '') return { kind: 'mailbox' };
  return smtpTarget(uri, smtp);
}

/** How the delivery log names a target: its kind, host and port, never a credential. */
export function targetName(target: SmtpTarget | HttpTarget): string {
  const what = target.kind === 'smtp' ? 'SMTP server' : target.kind === 'sms' ? 'SMS endpoint' : 'HTTP endpoint';
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${what} at ${host}:${target.port}`;
}
