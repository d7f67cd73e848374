import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { selfserviceCodes, selfserviceFlows } from '../identity/schema';

export type CodeKind = 'recovery' | 'verification' | 'login';

/** Wrong codes a flow accepts before every code it issued is burnt. */
export const MAX_CODE_ATTEMPTS = 5;

const codeHash = (flowId: string, code: string) => createHash('sha256').update(`${flowId}:${code}`).digest('hex');

const unusedOf = (nid: string, flowId: string) =>
  and(eq(selfserviceCodes.nid, nid), eq(selfserviceCodes.flow_id, flowId), isNull(selfserviceCodes.used_at));

/** Issues a fresh 6-digit code for the flow of tenant `nid` (older unused codes of the flow stop working). */
export async function issueCode(
  q: Queryable,
  args: { nid: string; flowId: string; kind: CodeKind; identityId: string; address: string; lifespanMs: number; now: Date },
): Promise<string> {
  return storeSecret(q, args, String(randomInt(0, 1_000_000)).padStart(6, '0'));
}

/**
 * Issues the token of a recovery link (`/self-service/recovery?flow=…&token=…`): 256 random bits, kept as a
 * hash beside the flow's codes and redeemed once like them, so nobody can guess one.
 */
export async function issueLinkToken(
  q: Queryable,
  args: { nid: string; flowId: string; identityId: string; address: string; lifespanMs: number; now: Date },
): Promise<string> {
  return storeSecret(q, { ...args, kind: 'recovery' }, randomBytes(32).toString('base64url'));
}

async function storeSecret(
  q: Queryable,
  args: { nid: string; flowId: string; kind: CodeKind; identityId: string; address: string; lifespanMs: number; now: Date },
  code: string,
): Promise<string> {
  await burnCodes(q, args.nid, args.flowId, args.now);
  await q.orm.insert(selfserviceCodes).values({
    id: randomUUID(),
    nid: args.nid,
    flow_id: args.flowId,
    kind: args.kind,
    identity_id: args.identityId,
    address: args.address,
    code_hash: codeHash(args.flowId, code),
    expires_at: new Date(args.now.getTime() + args.lifespanMs),
  });
  return code;
}

/**
 * Redeems a code once: the identity and address it was sent for, or null when invalid, used or expired at `now`
 * (or, with `identityId`, sent for another identity).
 */
export async function redeemCode(
  q: Queryable,
  nid: string,
  flowId: string,
  kind: CodeKind,
  code: string,
  now: Date,
  identityId?: string,
): Promise<{ identityId: string; address: string } | null> {
  const rows = await q.orm
    .select({
      id: selfserviceCodes.id,
      identity_id: selfserviceCodes.identity_id,
      address: selfserviceCodes.address,
      code_hash: selfserviceCodes.code_hash,
    })
    .from(selfserviceCodes)
    .where(
      and(
        unusedOf(nid, flowId),
        eq(selfserviceCodes.kind, kind),
        gt(selfserviceCodes.expires_at, now),
        identityId === undefined ? undefined : eq(selfserviceCodes.identity_id, identityId),
      ),
    )
    .for('update');
  const wanted = Buffer.from(codeHash(flowId, code.trim()));
  const match = rows.find((r) => {
    const have = Buffer.from(r.code_hash);
    return have.length === wanted.length && timingSafeEqual(have, wanted);
  });
  if (!match) return null;
  await q.orm
    .update(selfserviceCodes)
    .set({ used_at: now })
    .where(and(eq(selfserviceCodes.id, match.id), isNull(selfserviceCodes.used_at)));
  return { identityId: match.identity_id, address: match.address };
}

const ofFlow = (nid: string, flowId: string) => and(eq(selfserviceFlows.nid, nid), eq(selfserviceFlows.id, flowId));

/**
 * Counts one code submission on the flow and returns the new count, in a single UPDATE: the row lock
 * it takes makes concurrent submissions count one after another on PGlite and PostgreSQL alike, so
 * no number of parallel guesses gets past MAX_CODE_ATTEMPTS. Every submission counts, as in Kratos.
 */
export async function countCodeAttempt(q: Queryable, nid: string, flowId: string): Promise<number> {
  const [row] = await q.orm
    .update(selfserviceFlows)
    .set({
      data: sql`jsonb_set(${selfserviceFlows.data}, '{attempts}', to_jsonb(coalesce((${selfserviceFlows.data}->>'attempts')::int, 0) + 1))`,
    })
    .where(ofFlow(nid, flowId))
    .returning({ attempts: sql<number>`(${selfserviceFlows.data}->>'attempts')::int` });
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

/** Starts counting afresh (a new code was sent; the older ones no longer work). */
export async function resetCodeAttempts(q: Queryable, nid: string, flowId: string): Promise<void> {
  await q.orm
    .update(selfserviceFlows)
    .set({ data: sql`jsonb_set(${selfserviceFlows.data}, '{attempts}', '0')` })
    .where(ofFlow(nid, flowId));
}

/** Burns every unused code of a flow (too many wrong attempts, or a new code replaces them). */
export async function burnCodes(q: Queryable, nid: string, flowId: string, now: Date): Promise<void> {
  await q.orm.update(selfserviceCodes).set({ used_at: now }).where(unusedOf(nid, flowId));
}
