import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Configuration, OAuth2Api } from '@ory/client';
import { rawCall, type Answer } from '../test-support/control-plane';
import { newUser, projectWithKey } from '../test-support/admin-api';
import type { LocalStack } from '../index';
import { createDurableStore, startTestStack, type DurableStore } from '../../server/test-support/stack';
import { registerUser } from '../../server/test-support/users';
import { applicationName } from './postgres';
import { dayOf, usageBetween } from '../billing/usage';
import { locationOfOpl } from '../permission/rules';
import { DOCUMENTS_AND_FOLDERS } from '../../shared/permissions/templates';

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
   * backend of the stack once they all wait (or `waiting` statements do), then lets go; resolves with the
   * requests' answers.
   */
  async function terminateUnder(table: string, requests: (() => Promise<Answer>)[], waiting = requests.length): Promise<Answer[]> {
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const answers = Promise.all(requests.map((r) => r()));
    try {
      while ((await waitingBackends()) < waiting) {
        // Polls pg_stat_activity until every request's statement is blocked on the lock.
      }
      // Waits (up to 5 s) until each backend has ended: an idle one still running when the next request comes
      // would take that request down with it.
      const killed = await admin.query('SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = $1', [appName]);
      expect(killed.rowCount).toBeGreaterThanOrEqual(waiting);
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

  it("fails token requests in flight in oidc-provider's storage with 503 and Retry-After, in OAuth's error shape", async () => {
    const project = await projectWithKey(stack, await newUser(stack, 'Tokens'), 'Tokens');
    const oauth2 = new OAuth2Api(new Configuration({ basePath: project.base, accessToken: project.key }));
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: ['client_credentials'] } });
    const token = async (): Promise<Answer & { retryAfter: string | null }> => {
      const res = await fetch(`${project.base}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
        body: 'grant_type=client_credentials',
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
    };
    expect((await token()).status).toBe(200);

    // The client is looked up by oidc-provider's adapter: the statement that waits is its own.
    const answers = (await terminateUnder('oauth2_clients', [token, token])) as Awaited<ReturnType<typeof token>>[];
    for (const a of answers) {
      expect(a).toEqual({ status: 503, retryAfter: '1', body: { error: 'temporarily_unavailable', error_description: expect.stringMatching(/database connection was lost/) } });
    }
    expect((await token()).status).toBe(200);
  });

  it("keeps a token's usage and event when the database connection is lost while they are written", async () => {
    const project = await projectWithKey(stack, await newUser(stack, 'Metered'), 'Metered');
    const oauth2 = new OAuth2Api(new Configuration({ basePath: project.base, accessToken: project.key }));
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: ['client_credentials'] } });
    const token = async (): Promise<Answer> => {
      const res = await fetch(`${project.base}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
        body: 'grant_type=client_credentials',
      });
      return { status: res.status, body: await res.json() };
    };
    const day = dayOf(stack.clock.now());
    const next = dayOf(new Date(stack.clock.now().getTime() + 86_400_000));
    const issued = async () => (await usageBetween(stack.db, [project.id], day, next)).tokensIssued;
    const events = async () =>
      (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM project_events WHERE nid = $1 AND type = 'OAuth2TokenIssued'`, [project.id])).rows[0]!.n;

    // The token is answered first; then its event and its usage both write to usage_counters, and wait on its lock.
    const [answer] = await terminateUnder('usage_counters', [token], 2);
    expect(answer!.status).toBe(200);
    await expect.poll(issued, { timeout: 10_000 }).toBe(1);
    await expect.poll(events, { timeout: 10_000 }).toBe(1);
  });

  it('keeps the events and usage of permission checks when the database connection is lost while they are written', async () => {
    const user = await newUser(stack, 'Checks');
    const project = await projectWithKey(stack, user, 'Checks');
    const rules = await user.projects.patchProject({
      projectId: project.id,
      jsonPatch: [{ op: 'add', path: '/services/permission', value: { config: { namespaces: { location: locationOfOpl(DOCUMENTS_AND_FOLDERS) } } } }],
    });
    expect(rules.status).toBe(200);
    const check = async (): Promise<Answer> => {
      const q = new URLSearchParams({ namespace: 'File', object: 'private', relation: 'view', subject_id: 'henning' });
      const res = await fetch(`${project.base}/relation-tuples/check/openapi?${q}`, { headers: { authorization: `Bearer ${project.key}` } });
      return { status: res.status, body: await res.json() };
    };
    const day = dayOf(stack.clock.now());
    const next = dayOf(new Date(stack.clock.now().getTime() + 86_400_000));
    const metered = async () => (await usageBetween(stack.db, [project.id], day, next)).permissionChecks;
    const events = async () =>
      (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM project_events WHERE nid = $1 AND type = 'PermissionChecked'`, [project.id])).rows[0]!.n;

    // The checks are answered at once; their events and usage are written within a second, to usage_counters too.
    const answers = await terminateUnder('usage_counters', [check, check], 1);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await expect.poll(events, { timeout: 10_000 }).toBe(2);
    await expect.poll(metered, { timeout: 10_000 }).toBe(2);
  });
});
