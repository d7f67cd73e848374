import Papa from 'papaparse';
import type { AuditEventDetail } from '../../../shared/schemas/audit-log';

/** The columns of an exported log, in order: one row per event. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor_email',
  'actor_kind',
  'actor_key_id',
  'action',
  'target_type',
  'target_id',
  'project_id',
  'outcome',
  'status',
  'fields',
  'before',
  'after',
] as const;

/**
 * Events as an RFC 4180 file (CRLF line ends, a field quoted when it holds a comma, a quote or a line end, its
 * quotes doubled): the time in ISO 8601, the actor, the action, its target, and the object before and after the
 * write as JSON (`null` when there was none). A text a spreadsheet would run as a formula starts with a `'`.
 */
export function auditCsv(events: AuditEventDetail[]): string {
  const rows = events.map((e) => [
    e.id,
    e.at,
    e.actor.id ?? '',
    e.actor.email ?? '',
    e.actor.kind,
    e.actor.key_id ?? '',
    e.action,
    e.target_type,
    e.target_id ?? '',
    e.project_id ?? '',
    e.outcome,
    String(e.status),
    e.fields.join(' '),
    JSON.stringify(e.before ?? null),
    JSON.stringify(e.after ?? null),
  ]);
  return `${Papa.unparse([[...AUDIT_CSV_COLUMNS], ...rows], { newline: '\r\n', escapeFormulae: true })}\r\n`;
}
