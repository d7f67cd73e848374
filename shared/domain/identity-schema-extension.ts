/*
 * What Ory's `ory.sh/kratos` extension of an identity schema makes of an identity's traits: the identifier
 * its password (or code) credential signs in with, and the addresses it verifies and recovers with.
 */

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export type AddressVia = 'email' | 'sms';

export interface TraitMarks {
  /** Dotted trait paths whose values are password identifiers. */
  passwordIdentifiers: string[];
  /** Traits a one-time code signs in with. */
  codeIdentifiers: { path: string; via: AddressVia }[];
  verification: { path: string; via: AddressVia }[];
  recovery: { path: string; via: AddressVia }[];
}

const viaOf = (v: unknown): AddressVia => (v === 'sms' ? 'sms' : 'email');

/** The traits the extension marks, in the schema's order (nested objects included). */
export function traitMarks(identitySchema: unknown): TraitMarks {
  const marks: TraitMarks = { passwordIdentifiers: [], codeIdentifiers: [], verification: [], recovery: [] };
  const traits = isObject(identitySchema) && isObject(identitySchema.properties) ? identitySchema.properties.traits : undefined;
  const walk = (schema: unknown, path: string) => {
    if (!isObject(schema)) return;
    const ext = schema['ory.sh/kratos'];
    if (isObject(ext) && path) {
      const credentials = isObject(ext.credentials) ? ext.credentials : {};
      if (isObject(credentials.password) && credentials.password.identifier === true) marks.passwordIdentifiers.push(path);
      if (isObject(credentials.code) && credentials.code.identifier === true) {
        marks.codeIdentifiers.push({ path, via: viaOf(credentials.code.via) });
      }
      if (isObject(ext.verification)) marks.verification.push({ path, via: viaOf(ext.verification.via) });
      if (isObject(ext.recovery)) marks.recovery.push({ path, via: viaOf(ext.recovery.via) });
    }
    if (isObject(schema.properties)) {
      for (const [key, child] of Object.entries(schema.properties)) walk(child, path ? `${path}.${key}` : key);
    }
  };
  walk(traits, '');
  return marks;
}

function valuesAt(traits: JsonObject, path: string): string[] {
  let at: unknown = traits;
  for (const key of path.split('.')) at = isObject(at) ? at[key] : undefined;
  const list = Array.isArray(at) ? at : [at];
  return list.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/** Ory stores identifiers and addresses trimmed; email addresses lower-cased. */
const normalized = (value: string, via: AddressVia) => (via === 'email' ? value.trim().toLowerCase() : value.trim());

export interface TraitIdentifiers {
  /** The password credential's identifier: the first marked trait that has a value (null: none). */
  password: string | null;
  verifiable: { value: string; via: AddressVia }[];
  recovery: { value: string; via: AddressVia }[];
}

const unique = (list: { value: string; via: AddressVia }[]) => {
  const seen = new Set<string>();
  return list.filter((a) => (seen.has(`${a.via}:${a.value}`) ? false : (seen.add(`${a.via}:${a.value}`), true)));
};

/** The identifiers and addresses an identity's traits give under its schema. */
export function traitIdentifiers(identitySchema: unknown, traits: JsonObject): TraitIdentifiers {
  const marks = traitMarks(identitySchema);
  const emailLike = (path: string) =>
    [...marks.verification, ...marks.recovery, ...marks.codeIdentifiers].find((m) => m.path === path)?.via ?? 'email';
  const password = marks.passwordIdentifiers.flatMap((p) => valuesAt(traits, p).map((v) => normalized(v, emailLike(p))))[0] ?? null;
  return {
    password,
    verifiable: unique(marks.verification.flatMap((m) => valuesAt(traits, m.path).map((v) => ({ value: normalized(v, m.via), via: m.via })))),
    recovery: unique(marks.recovery.flatMap((m) => valuesAt(traits, m.path).map((v) => ({ value: normalized(v, m.via), via: m.via })))),
  };
}

/** The addresses a one-time code signs an identity in with: its traits the schema marks `credentials.code.identifier`. */
export function codeIdentifiers(identitySchema: unknown, traits: JsonObject): { value: string; via: AddressVia }[] {
  return unique(traitMarks(identitySchema).codeIdentifiers.flatMap((m) => valuesAt(traits, m.path).map((v) => ({ value: normalized(v, m.via), via: m.via }))));
}
