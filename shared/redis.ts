import { Redis } from 'ioredis';

/**
 * A Redis connection for counters several instances share (rate limits). Commands fail fast while Redis is
 * unreachable (one retry, no offline queue growing without bound) and the client reconnects by itself;
 * `onError` hears each distinct failure once until the connection is back, so an outage is one log line,
 * not one per command. The URL may hold a password: it is never logged.
 */
export function connectRedis(url: string, onError: (message: string) => void): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, enableAutoPipelining: true });
  let reported = '';
  redis.on('error', (err: Error) => {
    const message = err.message.replace(url, '<REDIS_URL>');
    if (message === reported) return;
    reported = message;
    onError(message);
  });
  redis.on('ready', () => {
    reported = '';
  });
  return redis;
}

/** Closes the connection, waiting for pending replies, or drops it if Redis does not answer. */
export async function closeRedis(redis: Redis): Promise<void> {
  try {
    await Promise.race([redis.quit(), new Promise((_, reject) => setTimeout(() => reject(new Error('quit timed out')), 1_000).unref())]);
  } catch {
    redis.disconnect();
  }
}
