import { lt, not, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LocalStackContext } from '../kernel/context';
import { selfserviceErrors, selfserviceFlows, sessions } from '../identity/schema';

const HOUR_MS = 60 * 60_000;

/** Deletes what can no longer be used, in every tenant: flows expired a day ago (with their codes), old errors and sessions. */
export async function purgeExpired(ctx: LocalStackContext): Promise<void> {
  await ctx.db.tx(async (q) => {
    await q.orm.delete(selfserviceFlows).where(lt(selfserviceFlows.expires_at, sql`now() - interval '1 day'`));
    await q.orm.delete(selfserviceErrors).where(lt(selfserviceErrors.created_at, sql`now() - interval '7 days'`));
    await q.orm.delete(sessions).where(or(lt(sessions.expires_at, sql`now() - interval '1 day'`), not(sessions.active)));
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
