import Papa from 'papaparse';
import { schemaFields, withValue } from '../../../../shared/domain/schema-form';

/** One row of an import file: its traits (mapped from columns), an optional password hash, and what is wrong with it. */
export interface ImportRow {
  line: number;
  traits: Record<string, unknown>;
  passwordHash?: string;
  errors: string[];
}

/** The columns of a CSV file (its header row) and its records, or the reason it cannot be read. */
export function readCsv(text: string): { columns: string[]; records: Record<string, string>[] } | { error: string } {
  const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });
  if (parsed.errors.length > 0 && parsed.data.length === 0) return { error: `The CSV file could not be read: ${parsed.errors[0]!.message}` };
  return { columns: parsed.meta.fields ?? [], records: parsed.data };
}

/** A JSON import file: an array of identities ({traits} or bare trait objects), or the reason it is not one. */
export function readJson(text: string): { records: Record<string, unknown>[] } | { error: string } {
  try {
    const value: unknown = JSON.parse(text);
    const list = Array.isArray(value) ? value : (value as { identities?: unknown })?.identities;
    if (!Array.isArray(list)) return { error: 'The JSON file must hold an array of identities.' };
    return { records: list.map((v) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {})) };
  } catch (err) {
    return { error: `The JSON file could not be read: ${(err as Error).message}` };
  }
}

/** The trait paths an identity schema has (leaves only), for the column mapping. */
export function traitPaths(identitySchema: unknown): string[] {
  const walk = (fields: ReturnType<typeof schemaFields>): string[] => fields.flatMap((f) => (f.kind === 'object' ? walk(f.fields) : [f.path]));
  return walk(schemaFields(identitySchema));
}

/** The column named like a trait (case and separators ignored), for a first guess of the mapping. */
export function guessMapping(columns: string[], paths: string[]): Record<string, string> {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const mapping: Record<string, string> = {};
  for (const path of paths) {
    const column = columns.find((c) => norm(c) === norm(path) || norm(c) === norm(path.split('.').at(-1)!));
    if (column) mapping[path] = column;
  }
  return mapping;
}

const HASH_COLUMNS = ['password_hash', 'hashed_password', 'passwordhash'];

/** CSV records as import rows through the mapping (trait path → column), not yet checked. */
export function csvRows(records: Record<string, string>[], mapping: Record<string, string>): ImportRow[] {
  return records.map((record, i) => {
    let traits: Record<string, unknown> = {};
    for (const [path, column] of Object.entries(mapping)) if (column && record[column] !== undefined) traits = withValue(traits, path, record[column]!.trim());
    const hashColumn = Object.keys(record).find((c) => HASH_COLUMNS.includes(c.toLowerCase()));
    const passwordHash = hashColumn ? record[hashColumn]?.trim() || undefined : undefined;
    return { line: i + 2, traits, ...(passwordHash ? { passwordHash } : {}), errors: [] };
  });
}

/** JSON records as import rows, not yet checked. */
export function jsonRows(records: Record<string, unknown>[]): ImportRow[] {
  return records.map((record, i) => {
    const traits = (typeof record.traits === 'object' && record.traits !== null ? record.traits : record) as Record<string, unknown>;
    const hash = (record.credentials as { password?: { config?: { hashed_password?: unknown } } } | undefined)?.password?.config?.hashed_password;
    return { line: i + 1, traits, ...(typeof hash === 'string' ? { passwordHash: hash } : {}), errors: [] };
  });
}

/** Rows with the schema's verdict on each (the errors by field path the server's check answered, in order). */
export function withErrors(rows: ImportRow[], verdicts: Record<string, string>[]): ImportRow[] {
  return rows.map((row, i) => ({ ...row, errors: Object.entries(verdicts[i] ?? {}).map(([path, message]) => (path ? `${path}: ${message}` : message)) }));
}

/** The row's email trait as the identity provider keeps it (trimmed, lower-cased), if it has one. */
export const emailOf = (row: ImportRow) => (typeof row.traits.email === 'string' && row.traits.email.trim() ? row.traits.email.trim().toLowerCase() : undefined);

/** Rows whose email is on an earlier line of the file, or belongs to an identity of the project already, marked so. */
export function withDuplicates(rows: ImportRow[], existing: ReadonlySet<string>): ImportRow[] {
  const firstLine = new Map<string, number>();
  return rows.map((row) => {
    const email = emailOf(row);
    if (!email) return row;
    const errors = [...row.errors];
    const earlier = firstLine.get(email);
    if (earlier === undefined) firstLine.set(email, row.line);
    else errors.push(`email: ${email} is on line ${earlier} of this file already`);
    if (existing.has(email)) errors.push(`email: an identity with ${email} exists already`);
    return errors.length === row.errors.length ? row : { ...row, errors };
  });
}

/** A CSV report of the rows that were not imported and why. */
export function failureReport(rows: { line: number; traits: Record<string, unknown>; error: string }[]): string {
  return Papa.unparse(rows.map((r) => ({ line: r.line, traits: JSON.stringify(r.traits), error: r.error })));
}
