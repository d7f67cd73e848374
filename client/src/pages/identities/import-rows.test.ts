import { describe, expect, it } from 'vitest';
import { validateTraits } from '../../../../shared/domain/traits-validation';
import { csvRows, failureReport, guessMapping, jsonRows, readCsv, readJson, traitPaths, withDuplicates, withErrors, type ImportRow } from './import-rows';

/** The server's check, run here with the same validation. */
const check = (rows: ImportRow[]) => withErrors(rows, rows.map((r) => validateTraits(schema, r.traits)));

const schema = {
  properties: {
    traits: {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, name: { type: 'object', properties: { first: { type: 'string' } } } },
      required: ['email'],
      additionalProperties: false,
    },
  },
};

describe('identity import files', () => {
  it('maps CSV columns to traits, checks each row with the schema, and keeps hashed passwords', () => {
    const csv = readCsv('Email,First,password_hash\nada@example.com,Ada,$argon2id$v=19$x\nnot-an-email,Bob,\n,Carol,\n');
    if ('error' in csv) throw new Error(csv.error);
    const mapping = guessMapping(csv.columns, traitPaths(schema));
    expect(mapping).toEqual({ email: 'Email', 'name.first': 'First' });
    const rows = check(csvRows(csv.records, mapping));
    expect(rows.map((r) => [r.line, r.errors])).toEqual([
      [2, []],
      [3, ['email: Must be a valid email']],
      [4, ['email: Required']],
    ]);
    expect(rows[0]).toMatchObject({ traits: { email: 'ada@example.com', name: { first: 'Ada' } }, passwordHash: '$argon2id$v=19$x' });
  });

  it('reads JSON arrays of identities or of traits, and says when a file is neither', () => {
    const json = readJson('[{"traits":{"email":"a@example.com"}},{"email":"b@example.com","shoe":1}]');
    if ('error' in json) throw new Error(json.error);
    expect(check(jsonRows(json.records)).map((r) => r.errors)).toEqual([[], ['shoe: Is not a trait of this schema']]);
    expect(readJson('{"nope":1}')).toEqual({ error: 'The JSON file must hold an array of identities.' });
    expect('error' in readJson('{')).toBe(true);
  });

  it('writes a report of the rows that failed', () => {
    expect(failureReport([{ line: 3, traits: { email: 'x' }, error: 'email: Must be a valid email' }])).toBe('line,traits,error\r\n3,"{""email"":""x""}",email: Must be a valid email');
  });

  it('marks an email that is on an earlier line, or belongs to an identity already', () => {
    const csv = readCsv('Email\nada@example.com\nbob@example.com\n ADA@example.com\ngrace@example.com\n');
    if ('error' in csv) throw new Error(csv.error);
    const rows = withDuplicates(check(csvRows(csv.records, { email: 'Email' })), new Set(['grace@example.com']));
    expect(rows.map((r) => [r.line, r.errors])).toEqual([
      [2, []],
      [3, []],
      [4, ['email: ada@example.com is on line 2 of this file already']],
      [5, ['email: an identity with grace@example.com exists already']],
    ]);
  });
});
