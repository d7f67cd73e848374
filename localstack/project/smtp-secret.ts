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

/** A copy of `services` with the SMTP password redacted (the stored object is left alone). */
export function redactServices(services: JsonObject): JsonObject {
  const uri = smtpOf(services)?.connection_uri;
  const redacted = redactConnectionUri(uri);
  if (redacted === uri) return services;
  const copy = structuredClone(services) as JsonObject;
  smtpOf(copy)!.connection_uri = redacted;
  return copy;
}

/** `services` as a write stores them: a redacted SMTP password sent back is the stored one again. */
export function restoreServices(services: JsonObject, stored: JsonObject): JsonObject {
  const smtp = smtpOf(services);
  if (!smtp) return services;
  const uri = restoreConnectionUri(smtp.connection_uri, smtpOf(stored)?.connection_uri);
  if (uri === smtp.connection_uri) return services;
  const copy = structuredClone(services) as JsonObject;
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
