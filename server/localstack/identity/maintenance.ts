import type { FastifyInstance } from 'fastify';
import type { LocalStackContext } from '../context';

const HOUR_MS = 60 * 60_000;

/** Deletes what can no longer be used: flows expired a day ago (with their codes), old errors and sessions. */
export async function purgeExpired(ctx: LocalStackContext): Promise<void> {
  await ctx.db.tx(async (q) => {
    await q.query(`DELETE FROM selfservice_flows WHERE expires_at < now() - interval '1 day'`);
    await q.query(`DELETE FROM selfservice_errors WHERE created_at < now() - interval '7 days'`);
    await q.query(`DELETE FROM sessions WHERE expires_at < now() - interval '1 day' OR NOT active`);
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
