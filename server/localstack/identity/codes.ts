import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/types';
import { CONSOLE_NID } from './tenant-id';

export type CodeKind = 'recovery' | 'verification';

/** Wrong codes a flow accepts before every code it issued is burnt. */
export const MAX_CODE_ATTEMPTS = 5;

const codeHash = (flowId: string, code: string) => createHash('sha256').update(`${flowId}:${code}`).digest('hex');

/** Issues a fresh 6-digit code for the flow (older unused codes of the flow stop working). */
export async function issueCode(
  q: Queryable,
  args: { flowId: string; kind: CodeKind; identityId: string; address: string; lifespanMs: number },
): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await q.query('UPDATE selfservice_codes SET used_at = now() WHERE flow_id = $1 AND used_at IS NULL', [args.flowId]);
  await q.query(
    `INSERT INTO selfservice_codes (nid, id, flow_id, kind, identity_id, address, code_hash, expires_at)
     VALUES ('${CONSOLE_NID}', $1, $2, $3, $4, $5, $6, $7)`,
    [
      randomUUID(),
      args.flowId,
      args.kind,
      args.identityId,
      args.address,
      codeHash(args.flowId, code),
      new Date(Date.now() + args.lifespanMs),
    ],
  );
  return code;
}

/** Redeems a code once: the identity and address it was sent for, or null when invalid/used/expired. */
export async function redeemCode(
  q: Queryable,
  flowId: string,
  kind: CodeKind,
  code: string,
): Promise<{ identityId: string; address: string } | null> {
  const rows = await q.query<{ id: string; identity_id: string; address: string; code_hash: string }>(
    `SELECT id, identity_id, address, code_hash FROM selfservice_codes
      WHERE flow_id = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
    [flowId, kind],
  );
  const wanted = Buffer.from(codeHash(flowId, code.trim()));
  const match = rows.find((r) => {
    const have = Buffer.from(r.code_hash);
    return have.length === wanted.length && timingSafeEqual(have, wanted);
  });
  if (!match) return null;
  await q.query('UPDATE selfservice_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL', [match.id]);
  return { identityId: match.identity_id, address: match.address };
}

/**
 * Counts one code submission on the flow and returns the new count, in a single UPDATE: the row lock
 * it takes makes concurrent submissions count one after another on PGlite and PostgreSQL alike, so
 * no number of parallel guesses gets past MAX_CODE_ATTEMPTS. Every submission counts, as in Kratos.
 */
export async function countCodeAttempt(q: Queryable, flowId: string): Promise<number> {
  const [row] = await q.query<{ attempts: number }>(
    `UPDATE selfservice_flows
        SET data = jsonb_set(data, '{attempts}', to_jsonb(coalesce((data->>'attempts')::int, 0) + 1))
      WHERE id = $1
  RETURNING (data->>'attempts')::int AS attempts`,
    [flowId],
  );
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

/** Starts counting afresh (a new code was sent; the older ones no longer work). */
export async function resetCodeAttempts(q: Queryable, flowId: string): Promise<void> {
  await q.query(`UPDATE selfservice_flows SET data = jsonb_set(data, '{attempts}', '0') WHERE id = $1`, [flowId]);
}

/** Burns every unused code of a flow (too many wrong attempts). */
export async function burnCodes(q: Queryable, flowId: string): Promise<void> {
  await q.query('UPDATE selfservice_codes SET used_at = now() WHERE flow_id = $1 AND used_at IS NULL', [flowId]);
}
