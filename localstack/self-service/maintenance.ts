import { lt, not, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LocalStackContext } from '../kernel/context';
import { selfserviceErrors, selfserviceFlows, sessions } from '../identity/schema';
import { pruneIdempotencyKeys } from '../kernel/idempotency';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Deletes what can no longer be used, in every tenant: flows expired a day ago (with their codes), old errors and
 * sessions, and the answers of idempotent writes older than a day, by the stack's clock.
 */
export async function purgeExpired(ctx: LocalStackContext): Promise<void> {
  const now = ctx.clock.now().getTime();
  const ago = (ms: number) => new Date(now - ms);
  await ctx.db.tx(async (q) => {
    await q.orm.delete(selfserviceFlows).where(lt(selfserviceFlows.expires_at, ago(DAY_MS)));
    await q.orm.delete(selfserviceErrors).where(lt(selfserviceErrors.created_at, ago(7 * DAY_MS)));
    await q.orm.delete(sessions).where(or(lt(sessions.expires_at, ago(DAY_MS)), not(sessions.active)));
    await pruneIdempotencyKeys(q, new Date(now));
  });
}

/** Runs purgeExpired hourly while the app is open. */
export function schedulePurge(app: FastifyInstance, ctx: LocalStackContext): void {
  const timer = setInterval(() => {
    purgeExpired(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'purging expired identity records failed'));
  }, HOUR_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
