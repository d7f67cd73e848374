import { z } from 'zod';
import { DOMAIN_LABEL_LIMIT, DOMAIN_MAX_LENGTH } from '../constants';

/** Texts explaining why a domain name or origin is refused. */
export const DOMAIN_NAME_MESSAGES = {
  empty: 'Enter a domain name',
  noDot: 'A domain name must contain a dot',
  characters: 'A domain name may only contain letters, digits, hyphens and dots',
  tooLong: `A domain name must be at most ${DOMAIN_MAX_LENGTH} characters long`,
  labelLength: `Each part of a domain name between dots must be 1 to ${DOMAIN_LABEL_LIMIT - 1} characters long`,
  labelHyphen: 'A part of a domain name must not start or end with a hyphen',
} as const;

export const ORIGIN_MESSAGES = {
  empty: 'Enter an origin',
  scheme: 'An origin must start with http:// or https://',
  port: 'The port must be a number from 1 to 65535',
} as const;

const ALLOWED_CHARACTERS = /^[A-Za-z0-9.-]+$/;

/**
 * Spec §5: why `value` is not a valid domain name, or null when it is.
 * - A single trailing dot (the fully qualified form) is allowed and is not counted towards the
 *   253-character total, as in DNS where 253 is the limit of the dotted form without the root dot.
 * - "Must contain a dot" means a dot between two labels: 'localhost.' has only the root dot and is refused.
 * - Every label, including the first and last, must be non-empty (so '.a.com' and 'a..com' are refused).
 */
export function validateDomainName(value: string): string | null {
  if (value === '') return DOMAIN_NAME_MESSAGES.empty;
  if (!ALLOWED_CHARACTERS.test(value)) return DOMAIN_NAME_MESSAGES.characters;
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (!name.includes('.')) return DOMAIN_NAME_MESSAGES.noDot;
  if (name.length > DOMAIN_MAX_LENGTH) return DOMAIN_NAME_MESSAGES.tooLong;
  for (const label of name.split('.')) {
    if (label.length === 0 || label.length >= DOMAIN_LABEL_LIMIT) return DOMAIN_NAME_MESSAGES.labelLength;
    if (label.startsWith('-') || label.endsWith('-')) return DOMAIN_NAME_MESSAGES.labelHyphen;
  }
  return null;
}

export function isValidDomainName(value: string): boolean {
  return validateDomainName(value) === null;
}

const SCHEME = /^https?:\/\//i;
const PORT = /:(\d+)$/;

/**
 * Spec §5: why `value` is not a valid origin, or null when it is. It must start with http:// or
 * https:// (any case); then a port (":8080", 1–65535) and a leading "*." are stripped and the rest
 * must be a valid domain name. A path, query or user info is refused by the domain check.
 */
export function validateOrigin(value: string): string | null {
  if (!SCHEME.test(value)) return ORIGIN_MESSAGES.scheme;
  let host = value.replace(SCHEME, '');
  const port = PORT.exec(host);
  if (port) {
    const n = Number(port[1]);
    if (n < 1 || n > 65_535) return ORIGIN_MESSAGES.port;
    host = host.slice(0, port.index);
  }
  if (host.startsWith('*.')) host = host.slice(2);
  return validateDomainName(host);
}

export function isValidOrigin(value: string): boolean {
  return validateOrigin(value) === null;
}

/** A domain name (surrounding spaces trimmed) for forms and procedure inputs. */
export const domainNameSchema = z
  .string({ error: DOMAIN_NAME_MESSAGES.empty })
  .trim()
  .superRefine((value, ctx) => {
    const problem = validateDomainName(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** An origin such as https://*.example.com:8443 (surrounding spaces trimmed). */
export const originSchema = z
  .string({ error: ORIGIN_MESSAGES.empty })
  .trim()
  .superRefine((value, ctx) => {
    const problem = validateOrigin(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
