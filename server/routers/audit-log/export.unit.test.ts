import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { AuditEventDetail } from '../../../shared/schemas/audit-log';
import { AUDIT_CSV_COLUMNS, auditCsv } from './export';

const event = (over: Partial<AuditEventDetail> = {}): AuditEventDetail => ({
  id: '0b6c3a2e-8f43-4d6e-9a51-2f1d2c3b4a59',
  at: '2026-11-26T10:00:00.000Z',
  actor: { id: '6a1f0d9e-2b3c-4d5e-8f70-112233445566', kind: 'user', email: 'ada@example.com', key_id: null },
  action: 'workspace.update',
  target_type: 'workspace',
  target_id: '7c2e1f0a-3b4c-4d5e-9f80-aabbccddeeff',
  project_id: null,
  outcome: 'success',
  status: 200,
  fields: ['name'],
  has_changes: true,
  before: { name: 'Old' },
  after: { name: 'New' },
  ...over,
});

describe('auditCsv', () => {
  it('writes a header and one CRLF-ended row per event, the before and after as JSON', () => {
    const csv = auditCsv([event()]);
    expect(csv).toBe(
      `${AUDIT_CSV_COLUMNS.join(',')}\r\n` +
        '0b6c3a2e-8f43-4d6e-9a51-2f1d2c3b4a59,2026-11-26T10:00:00.000Z,6a1f0d9e-2b3c-4d5e-8f70-112233445566,ada@example.com,user,,workspace.update,workspace,7c2e1f0a-3b4c-4d5e-9f80-aabbccddeeff,,success,200,name,' +
        '"{""name"":""Old""}","{""name"":""New""}"\r\n',
    );
  });

  it('quotes a field holding a comma, a quote or a line end, doubling its quotes, and reads back as written', () => {
    const awkward = event({ before: null, after: { name: 'a, "b"\r\nc\nd' }, fields: ['name', 'services'] });
    const csv = auditCsv([awkward, event({ before: { x: 1 }, after: null })]);
    expect(csv).toContain('"{""name"":""a, \\""b\\""\\r\\nc\\nd""}"');
    const { data } = Papa.parse<Record<string, string>>(csv.trimEnd(), { header: true });
    expect(data).toHaveLength(2);
    expect(JSON.parse(data[0]!.after!)).toEqual({ name: 'a, "b"\r\nc\nd' });
    expect(data[0]!.before).toBe('null');
    expect(data[0]!.fields).toBe('name services');
    expect(JSON.parse(data[1]!.before!)).toEqual({ x: 1 });
    expect(data[1]!.after).toBe('null');
  });

  it('keeps a text a spreadsheet would run as a formula from running', () => {
    const csv = auditCsv([event({ actor: { id: null, kind: 'user', email: '=HYPERLINK("http://evil.example")', key_id: null } })]);
    const { data } = Papa.parse<Record<string, string>>(csv.trimEnd(), { header: true });
    expect(data[0]!.actor_email).toBe(`'=HYPERLINK("http://evil.example")`);
  });

  it('writes the header alone for no event', () => {
    expect(auditCsv([])).toBe(`${AUDIT_CSV_COLUMNS.join(',')}\r\n`);
  });
});
