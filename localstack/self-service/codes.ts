import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { selfserviceCodes, selfserviceFlows } from '../identity/schema';
import { OryError } from '../kernel/errors';

export type CodeKind = 'recovery' | 'verification' | 'login' | 'registration';

/** Wrong codes a flow accepts before every code it issued is burnt. */
export const MAX_CODE_ATTEMPTS = 5;

const codeHash = (flowId: string, code: string) => createHash('sha256').update(`${flowId}:${code}`).digest('hex');

const unusedOf = (nid: string, flowId: string) =>
  and(eq(selfserviceCodes.nid, nid), eq(selfserviceCodes.flow_id, flowId), isNull(selfserviceCodes.used_at));

/** Issues a fresh 6-digit code for the flow of tenant `nid` (older unused codes of the flow stop working). */
export async function issueCode(
  q: Queryable,
  args: { nid: string; flowId: string; kind: Exclude<CodeKind, 'registration'>; identityId: string; address: string; lifespanMs: number; now: Date },
): Promise<string> {
  return storeSecret(q, args, String(randomInt(0, 1_000_000)).padStart(6, '0'));
}

/**
 * Issues a fresh sign-up code to each of `addresses` (Kratos sends one per code identifier of the traits); the
 * flow's older codes stop working. No identity exists yet.
 */
export async function issueRegistrationCodes(
  q: Queryable,
  args: { nid: string; flowId: string; addresses: string[]; lifespanMs: number; now: Date },
): Promise<{ address: string; code: string }[]> {
  await burnCodes(q, args.nid, args.flowId, args.now);
  const issued: { address: string; code: string }[] = [];
  for (const address of args.addresses) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await insertSecret(q, { ...args, kind: 'registration', identityId: null, address }, code);
    issued.push({ address, code });
  }
  return issued;
}

/**
 * Issues the token of a recovery or verification link (`/self-service/{kind}?flow=…&token=…`): 256 random
 * bits, kept as a hash beside the flow's codes and redeemed once like them, so nobody can guess one.
 */
export async function issueLinkToken(
  q: Queryable,
  args: { nid: string; flowId: string; identityId: string; address: string; lifespanMs: number; now: Date; kind?: 'recovery' | 'verification' },
): Promise<string> {
  return storeSecret(q, { ...args, kind: args.kind ?? 'recovery' }, randomBytes(32).toString('base64url'));
}

async function storeSecret(
  q: Queryable,
  args: { nid: string; flowId: string; kind: CodeKind; identityId: string | null; address: string; lifespanMs: number; now: Date },
  code: string,
): Promise<string> {
  await burnCodes(q, args.nid, args.flowId, args.now);
  return insertSecret(q, args, code);
}

async function insertSecret(
  q: Queryable,
  args: { nid: string; flowId: string; kind: CodeKind; identityId: string | null; address: string; lifespanMs: number; now: Date },
  code: string,
): Promise<string> {
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
  kind: Exclude<CodeKind, 'registration'>,
  code: string,
  now: Date,
  identityId?: string,
): Promise<{ identityId: string; address: string } | null> {
  const used = await useCode(q, nid, flowId, kind, code, now, identityId === undefined ? isNotNull(selfserviceCodes.identity_id) : eq(selfserviceCodes.identity_id, identityId));
  return used?.identity_id ? { identityId: used.identity_id, address: used.address } : null;
}

/**
 * Redeems a sign-up code of the flow once, when it was sent to one of `addresses` (the code identifiers of the
 * traits submitted with it): the address, or null when invalid, used, expired or sent elsewhere.
 */
export async function redeemRegistrationCode(q: Queryable, nid: string, flowId: string, code: string, now: Date, addresses: string[]): Promise<string | null> {
  if (addresses.length === 0) return null;
  return (await useCode(q, nid, flowId, 'registration', code, now, inArray(selfserviceCodes.address, addresses)))?.address ?? null;
}

async function useCode(q: Queryable, nid: string, flowId: string, kind: CodeKind, code: string, now: Date, also: SQL | undefined) {
  const rows = await q.orm
    .select({
      id: selfserviceCodes.id,
      identity_id: selfserviceCodes.identity_id,
      address: selfserviceCodes.address,
      code_hash: selfserviceCodes.code_hash,
    })
    .from(selfserviceCodes)
    .where(and(unusedOf(nid, flowId), eq(selfserviceCodes.kind, kind), gt(selfserviceCodes.expires_at, now), also))
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
  return match;
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

/**
 * Counts this code submission on `flow` (and keeps the count on it); past `max`, burns the flow's codes and
 * refuses with Kratos' max_submissions text. Counted before anything else, so parallel guesses all count.
 */
export async function countOrRefuseCodeAttempt(q: Queryable, flow: { nid: string; id: string; data: { attempts?: number } }, max: number, now: Date): Promise<void> {
  const attempts = await countCodeAttempt(q, flow.nid, flow.id);
  flow.data.attempts = attempts;
  if (attempts > max) {
    await burnCodes(q, flow.nid, flow.id, now);
    throw new OryError(400, { reason: 'The request was submitted too often. Please request another code.' });
  }
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
