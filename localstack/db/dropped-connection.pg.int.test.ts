import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCall, type Answer } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { createDurableStore, startTestStack, type DurableStore } from '../../server/test-support/stack';
import { registerUser } from '../../server/test-support/users';
import { applicationName } from './postgres';

// Collected only when DATABASE_URL is set (see vitest.config.ts): PGlite has no backends to terminate.
const databaseUrl = process.env.DATABASE_URL!;

describe('PostgreSQL backends terminated under load', () => {
  let store: DurableStore;
  let stack: LocalStack;
  let admin: pg.Client;
  let cookie: string;
  let appName: string;

  beforeAll(async () => {
    store = await createDurableStore();
    stack = await startTestStack(store.options);
    appName = applicationName(store.options.dbSchema);
    ({ cookie } = await registerUser(stack.url, { name: 'Resilient' }));
    admin = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${store.options.dbSchema}` });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await stack?.close();
    await store?.dispose();
  });

  /** How many of the stack's backends wait on a lock right now. */
  async function waitingBackends(): Promise<number> {
    // The admin connection is in a transaction, which would otherwise see one cached snapshot of the activity.
    await admin.query('SELECT pg_stat_clear_snapshot()');
    const res = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [appName],
    );
    return res.rows[0]!.n;
  }

  /**
   * Holds `table` locked so the requests' statements are running on their connections, terminates every
   * backend of the stack once they all wait, then lets go; resolves with the requests' answers.
   */
  async function terminateUnder(table: string, requests: (() => Promise<Answer>)[]): Promise<Answer[]> {
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const answers = Promise.all(requests.map((r) => r()));
    try {
      while ((await waitingBackends()) < requests.length) {
        // Polls pg_stat_activity until every request's statement is blocked on the lock.
      }
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName]);
      expect(killed.rowCount).toBeGreaterThanOrEqual(requests.length);
    } finally {
      await admin.query('ROLLBACK');
    }
    return answers;
  }

  const call = (method: string, path: string, body?: unknown) => () => rawCall(stack.url, cookie, method, path, body);

  it('fails the control-plane requests in flight with 503 and serves the next ones on fresh connections', async () => {
    const answers = await terminateUnder('workspaces', [
      call('POST', '/workspaces', { name: 'Lost one' }),
      call('POST', '/workspaces', { name: 'Lost two' }),
      call('GET', '/workspaces'),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.body.error).toMatchObject({ code: 503, status: 'Service Unavailable', reason: expect.stringMatching(/database connection was lost/) });
    }

    const created = await call('POST', '/workspaces', { name: 'After the outage' })();
    expect(created.status).toBe(201);
    const listed = await call('GET', '/workspaces')();
    expect(listed.status).toBe(200);
    // Writes interrupted by the outage left nothing behind.
    expect(listed.body.workspaces.map((w: { name: string }) => w.name)).toEqual(['After the outage']);
  });

  it('fails the identity requests in flight with 503 and answers the next ones', async () => {
    const answers = await terminateUnder('identities', [call('GET', '/sessions/whoami'), call('GET', '/sessions/whoami')]);
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.body.error).toMatchObject({ code: 503, reason: expect.stringMatching(/database connection was lost/) });
    }
    const who = await call('GET', '/sessions/whoami')();
    expect(who.status).toBe(200);
    expect(who.body.identity.traits.name).toBe('Resilient');
  });
});
