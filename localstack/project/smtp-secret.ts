import { badRequest } from '../kernel/errors';
import type { JsonObject } from './store';

/*
 * The SMTP password inside `courier.smtp.connection_uri` (and the normalized revision's
 * `kratos_courier_smtp_connection_uri`) never leaves the stack on a read: the answer carries this
 * placeholder where the password is, as the console shows `smtpPasswordSet`. A write that sends the
 * placeholder back for the same server and user keeps the stored password; for another server or user it is
 * refused, so nobody who may edit but not read the config can point the stored password at a server of theirs.
 */
export const REDACTED_PASSWORD = '********';
const PLACEHOLDER = encodeURIComponent(REDACTED_PASSWORD);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);

function smtpUrl(uri: unknown): URL | null {
  if (typeof uri !== 'string') return null;
  try {
    const url = new URL(uri);
    return url.protocol === 'smtp:' || url.protocol === 'smtps:' ? url : null;
  } catch {
    return null;
  }
}

/** The URI with its password replaced by the placeholder (unchanged when it has none or is not an SMTP URI). */
export function redactConnectionUri(uri: unknown): unknown {
  const url = smtpUrl(uri);
  if (!url || url.password === '') return uri;
  url.password = PLACEHOLDER;
  return url.toString();
}

const sameServer = (a: URL, b: URL) => a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port && a.username === b.username;

/** The URI a write stores: the placeholder becomes the stored password again, for the same server and user only. */
export function restoreConnectionUri(next: unknown, stored: unknown): unknown {
  const url = smtpUrl(next);
  if (!url || url.password !== PLACEHOLDER) return next;
  const before = smtpUrl(stored);
  if (!before || before.password === '' || !sameServer(url, before)) {
    throw badRequest(
      'courier.smtp.connection_uri carries the redacted password (********) for a server or user without a stored password; send the SMTP password itself.',
    );
  }
  url.password = before.password;
  return url.toString();
}

/** The SMTP settings object inside a project's services, when there is one. */
const smtpOf = (services: unknown): Json | undefined => obj(obj(obj(obj(obj(services)?.identity)?.config)?.courier)?.smtp);

/*
 * The secrets of HTTP delivery (`courier.http.request_config`) and of the SMS channel (the `sms` entry of
 * `courier.channels`) follow the same rule: `auth.config.password` of basic_auth and `auth.config.value` of
 * api_key are answered as the placeholder on every read and restored on a write that sends the placeholder
 * back for the same URL, auth type and user or key name; for another one the write is refused.
 */
const courierOf = (services: unknown): Json | undefined => obj(obj(obj(obj(services)?.identity)?.config)?.courier);

/** Each request config of the courier that may carry a secret, by a stable name and its JSON path for messages. */
function requestConfigs(services: unknown): { key: string; path: string; request: Json }[] {
  const courier = courierOf(services);
  const found: { key: string; path: string; request: Json }[] = [];
  const http = obj(obj(courier?.http)?.request_config);
  if (http) found.push({ key: 'http', path: 'courier.http.request_config', request: http });
  const channels = courier?.channels;
  if (Array.isArray(channels)) {
    channels.forEach((channel, i) => {
      const request = obj(obj(channel)?.request_config);
      const id = obj(channel)?.id;
      if (request) found.push({ key: `channel:${typeof id === 'string' ? id : i}`, path: `courier.channels[${i}].request_config`, request });
    });
  }
  return found;
}

/** The secret field of a request config's auth: `password` of basic_auth, `value` of api_key. */
function secretOf(request: Json): { config: Json; field: 'password' | 'value'; holder: 'user' | 'name' } | null {
  const auth = obj(request.auth);
  const config = obj(auth?.config);
  if (!config) return null;
  if (auth?.type === 'basic_auth' && typeof config.password === 'string') return { config, field: 'password', holder: 'user' };
  if (auth?.type === 'api_key' && typeof config.value === 'string') return { config, field: 'value', holder: 'name' };
  return null;
}

const hasSecret = (request: Json) => {
  const secret = secretOf(request);
  return secret !== null && secret.config[secret.field] !== '';
};

function redactRequestSecrets(services: JsonObject): JsonObject {
  if (!requestConfigs(services).some(({ request }) => hasSecret(request))) return services;
  const copy = structuredClone(services) as JsonObject;
  for (const { request } of requestConfigs(copy)) {
    const secret = secretOf(request);
    if (secret && hasSecret(request)) secret.config[secret.field] = REDACTED_PASSWORD;
  }
  return copy;
}

function restoreRequestSecrets(services: JsonObject, stored: JsonObject): JsonObject {
  const sent = requestConfigs(services).filter(({ request }) => {
    const secret = secretOf(request);
    return secret !== null && secret.config[secret.field] === REDACTED_PASSWORD;
  });
  if (sent.length === 0) return services;
  const before = new Map(requestConfigs(stored).map((r) => [r.key, r.request]));
  const copy = structuredClone(services) as JsonObject;
  const targets = new Map(requestConfigs(copy).map((r) => [r.key, r.request]));
  for (const { key, path, request } of sent) {
    const secret = secretOf(request)!;
    const old = before.get(key);
    const oldSecret = old ? secretOf(old) : null;
    const same =
      old !== undefined &&
      oldSecret !== null &&
      old.url === request.url &&
      obj(old.auth)?.type === obj(request.auth)?.type &&
      oldSecret.config[oldSecret.holder] === secret.config[secret.holder] &&
      oldSecret.config[oldSecret.field] !== REDACTED_PASSWORD;
    if (!same) {
      throw badRequest(
        `${path}.auth.config.${secret.field} carries the redacted secret (********) for a URL, auth type or ${secret.holder} without a stored secret; send the secret itself.`,
      );
    }
    secretOf(targets.get(key)!)!.config[secret.field] = oldSecret.config[oldSecret.field];
  }
  return copy;
}

/** A copy of `services` with the SMTP password and the HTTP and SMS delivery secrets redacted (the stored object is left alone). */
export function redactServices(services: JsonObject): JsonObject {
  const uri = smtpOf(services)?.connection_uri;
  const redacted = redactConnectionUri(uri);
  if (redacted === uri) return redactRequestSecrets(services);
  const copy = structuredClone(services) as JsonObject;
  smtpOf(copy)!.connection_uri = redacted;
  return redactRequestSecrets(copy);
}

/** `services` as a write stores them: a redacted SMTP password or delivery secret sent back is the stored one again. */
export function restoreServices(services: JsonObject, stored: JsonObject): JsonObject {
  const withSecrets = restoreRequestSecrets(services, stored);
  const smtp = smtpOf(withSecrets);
  if (!smtp) return withSecrets;
  const uri = restoreConnectionUri(smtp.connection_uri, smtpOf(stored)?.connection_uri);
  if (uri === smtp.connection_uri) return withSecrets;
  const copy = structuredClone(withSecrets) as JsonObject;
  smtpOf(copy)!.connection_uri = uri;
  return copy;
}

const NORMALIZED_URI = 'kratos_courier_smtp_connection_uri';

export function redactFields(fields: JsonObject): JsonObject {
  const redacted = redactConnectionUri(fields[NORMALIZED_URI]);
  return redacted === fields[NORMALIZED_URI] ? fields : { ...fields, [NORMALIZED_URI]: redacted };
}

export function restoreFields(fields: JsonObject, stored: JsonObject): JsonObject {
  const uri = restoreConnectionUri(fields[NORMALIZED_URI], stored[NORMALIZED_URI]);
  return uri === fields[NORMALIZED_URI] ? fields : { ...fields, [NORMALIZED_URI]: uri };
}
