/**
 * The identity service's delivery settings in Ory's project config (`courier.smtp`, `courier.delivery_strategy`,
 * `courier.http.request_config`, the `sms` entry of `courier.channels`) as the console edits them: the SMTP
 * password inside `connection_uri` is never given out, and an edit that does not change it keeps it. Every
 * other field of the config (headers, auth, templates, unknown fields) survives an edit.
 */
import type { EmailConfig, SetEmailConfigInput, SetSmsConfigInput, SmsConfig } from '../schemas/messaging';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export class EmailConfigError extends Error {}

interface SmtpParts {
  host: string;
  port: number | null;
  username: string;
  password: string;
  security: EmailConfig['smtpSecurity'];
  /** Other query parameters of the URI (skip_ssl_verify, local_name, …), kept as they are. */
  params: [string, string][];
}

export function parseConnectionUri(uri: string): SmtpParts | null {
  if (!uri) return null;
  try {
    const u = new URL(uri);
    if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') return null;
    const params = [...u.searchParams.entries()].filter(([k]) => k !== 'disable_starttls');
    const security = u.protocol === 'smtps:' ? 'implicit' : u.searchParams.get('disable_starttls') === 'true' ? 'none' : 'starttls';
    return {
      host: u.hostname,
      port: u.port ? Number(u.port) : null,
      username: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
      security,
      params,
    };
  } catch {
    return null;
  }
}

export function buildConnectionUri(p: SmtpParts): string {
  const auth = p.username || p.password ? `${encodeURIComponent(p.username)}${p.password ? `:${encodeURIComponent(p.password)}` : ''}@` : '';
  const params = new URLSearchParams(p.params);
  if (p.security === 'none') params.set('disable_starttls', 'true');
  const query = params.toString();
  return `${p.security === 'implicit' ? 'smtps' : 'smtp'}://${auth}${p.host}${p.port ? `:${p.port}` : ''}/${query ? `?${query}` : ''}`;
}

/** What the console shows of a courier config. */
export function readEmailConfig(courier: unknown): EmailConfig {
  const c = obj(courier);
  const smtp = obj(c.smtp);
  const parts = parseConnectionUri(str(smtp.connection_uri));
  const request = obj(obj(c.http).request_config);
  const method = str(request.method).toUpperCase();
  const strategy: EmailConfig['strategy'] = c.delivery_strategy === 'http' ? 'http' : parts ? 'smtp' : 'default';
  return {
    strategy,
    fromAddress: str(smtp.from_address),
    fromName: str(smtp.from_name),
    smtpHost: parts?.host ?? '',
    smtpPort: parts?.port ?? null,
    smtpUsername: parts?.username ?? '',
    smtpPasswordSet: Boolean(parts?.password),
    smtpSecurity: parts?.security ?? 'starttls',
    httpUrl: str(request.url),
    httpMethod: method === 'PUT' || method === 'PATCH' ? method : 'POST',
  };
}

/**
 * The courier config after an edit of the changed fields `input`; throws EmailConfigError saying what is
 * missing when the result would not deliver (SMTP without a host, HTTP without a URL).
 */
export function applyEmailConfig(courier: unknown, input: Omit<SetEmailConfigInput, 'projectId'>): Json {
  const c = obj(courier);
  const current = readEmailConfig(c);
  const currentParts = parseConnectionUri(str(obj(c.smtp).connection_uri));
  const strategy = input.strategy ?? current.strategy;
  const smtp: Json = { ...obj(c.smtp) };
  if (input.fromAddress !== undefined) smtp.from_address = input.fromAddress;
  if (input.fromName !== undefined) smtp.from_name = input.fromName;
  for (const key of ['from_address', 'from_name']) if (smtp[key] === '') delete smtp[key];
  const next: Json = { ...c };

  if (strategy === 'smtp') {
    const host = input.smtpHost ?? current.smtpHost;
    if (!host) throw new EmailConfigError('Enter the SMTP server’s host to send through SMTP.');
    smtp.connection_uri = buildConnectionUri({
      host,
      port: input.smtpPort !== undefined ? input.smtpPort : current.smtpPort,
      username: input.smtpUsername ?? current.smtpUsername,
      // An empty or omitted password keeps the stored one; the console never has it to send back.
      password: input.smtpPassword ? input.smtpPassword : (currentParts?.password ?? ''),
      security: input.smtpSecurity ?? current.smtpSecurity,
      params: currentParts?.params ?? [],
    });
    next.delivery_strategy = 'smtp';
  } else if (strategy === 'http') {
    const url = input.httpUrl ?? current.httpUrl;
    if (!url) throw new EmailConfigError('Enter the URL to send each email to with HTTP delivery.');
    const http = obj(c.http);
    next.http = { ...http, request_config: { ...obj(http.request_config), url, method: input.httpMethod ?? current.httpMethod } };
    next.delivery_strategy = 'http';
  } else {
    delete smtp.connection_uri;
    next.delivery_strategy = 'smtp';
  }
  if (Object.keys(smtp).length > 0) next.smtp = smtp;
  else delete next.smtp;
  return next;
}

/** The default request body of an SMS channel: Ory's Jsonnet, given the recipient and the rendered text. */
const SMS_BODY = 'base64://ZnVuY3Rpb24oY3R4KSB7CiAgVG86IGN0eC5yZWNpcGllbnQsCiAgQm9keTogY3R4LmJvZHksCn0K';

export function readSmsConfig(courier: unknown): SmsConfig {
  const channels = obj(courier).channels;
  const sms = Array.isArray(channels) ? channels.map(obj).find((ch) => ch.id === 'sms') : undefined;
  const request = obj(sms?.request_config);
  const method = str(request.method).toUpperCase();
  const auth = obj(request.auth);
  const config = obj(auth.config);
  const authType = auth.type === 'basic_auth' || auth.type === 'api_key' ? auth.type : 'none';
  return {
    enabled: Boolean(sms),
    url: str(request.url),
    method: method === 'PUT' || method === 'PATCH' ? method : 'POST',
    authType,
    basicUser: authType === 'basic_auth' ? str(config.user) : '',
    apiKeyName: authType === 'api_key' ? str(config.name) : '',
    secretSet: authType === 'basic_auth' ? str(config.password) !== '' : authType === 'api_key' ? str(config.value) !== '' : false,
  };
}

/** The `auth` of the SMS request after an edit: an omitted or empty secret keeps the stored one (the same kind only). */
function smsAuth(request: Json, current: SmsConfig, input: Omit<SetSmsConfigInput, 'projectId'>): Json | undefined {
  const type = input.authType ?? current.authType;
  if (type === 'none') return undefined;
  const stored = current.authType === type ? obj(obj(request.auth).config) : {};
  const secret = input.secret ? input.secret : str(type === 'basic_auth' ? stored.password : stored.value);
  if (type === 'basic_auth') {
    const user = input.basicUser ?? (current.authType === type ? current.basicUser : '');
    if (!user) throw new EmailConfigError('Enter the user name the SMS endpoint expects.');
    if (!secret) throw new EmailConfigError('Enter the password the SMS endpoint expects.');
    return { type, config: { ...stored, user, password: secret } };
  }
  const name = input.apiKeyName ?? (current.authType === type ? current.apiKeyName : '');
  if (!name) throw new EmailConfigError('Enter the header that carries the API key, such as X-Api-Key.');
  if (!secret) throw new EmailConfigError('Enter the API key the SMS endpoint expects.');
  return { type, config: { in: 'header', ...stored, name, value: secret } };
}

export function applySmsConfig(courier: unknown, input: Omit<SetSmsConfigInput, 'projectId'>): Json {
  const c = obj(courier);
  const current = readSmsConfig(c);
  const channels = Array.isArray(c.channels) ? [...c.channels] : [];
  const at = channels.findIndex((ch) => obj(ch).id === 'sms');
  const enabled = input.enabled ?? current.enabled;
  if (!enabled) {
    if (at >= 0) channels.splice(at, 1);
  } else {
    const url = input.url ?? current.url;
    if (!url) throw new EmailConfigError('Enter the URL that sends each SMS.');
    const existing = at >= 0 ? obj(channels[at]) : {};
    const request: Json = { body: SMS_BODY, ...obj(existing.request_config), url, method: input.method ?? current.method };
    const auth = smsAuth(request, current, input);
    if (auth) request.auth = auth;
    else delete request.auth;
    const entry = { ...existing, id: 'sms', type: 'http', request_config: request };
    if (at >= 0) channels[at] = entry;
    else channels.push(entry);
  }
  const next: Json = { ...c, channels };
  if (channels.length === 0) delete next.channels;
  return next;
}
