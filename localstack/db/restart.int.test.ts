import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { loginUser, registerUser } from '../../server/test-support/users';
import { anyStatus, browser, startTestStack } from '../test-support/self-service';
import { courierMessages } from '../identity/schema';
import { openDb } from './index';
import { readMigrations } from './migrate';
import { CONSOLE_NID } from '../kernel/tenant-id';

const dataDir = mkdtempSync(join(tmpdir(), 'localstack-restart-'));
let stack: LocalStack | undefined;

beforeAll(async () => {
  stack = await startTestStack({ dataDir });
});
afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('PGlite data directory', () => {
  it('keeps acknowledged users and sessions across a restart', async () => {
    const first = stack!;
    const user = await registerUser(first.url, { name: 'Persistent' });
    await first.close();

    stack = await startTestStack({ dataDir });
    const b = browser(stack.url);
    const who = await b.api.toSession({ cookie: user.cookie });
    expect(who.data.identity?.id).toBe(user.identityId);
    expect(who.data.identity?.traits.name).toBe('Persistent');
    const again = await loginUser(stack.url, user.email, user.password);
    expect(again.identityId).toBe(user.identityId);
    const migrations = await stack.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(migrations.map((m) => m.id)).toEqual(readMigrations().map((m) => m.id));
    expect((await b.api.toSession({ cookie: 'ory_kratos_session=forged' }, anyStatus)).status).toBe(401);
  });
});

describe('openDb', () => {
  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const db = await openDb(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL, schema: `t_tx_${Date.now()}` } : {});
    try {
      const insert = (q: { query: typeof db.query }, to: string) =>
        q.query(`INSERT INTO courier_messages (nid, id, recipient, subject, body, template_type) VALUES ('${CONSOLE_NID}', gen_random_uuid(), $1, 's', 'b', 't')`, [to]);
      await db.tx((q) => insert(q, 'kept@example.com'));
      await expect(
        db.tx(async (q) => {
          await insert(q, 'dropped@example.com');
          // The typed handle of a transaction writes in that same transaction.
          await q.orm
            .insert(courierMessages)
              .values({ nid: CONSOLE_NID, id: randomUUID(), recipient: 'dropped-too@example.com', subject: 's', body: 'b', template_type: 't' });
          expect(await q.orm.$count(courierMessages)).toBe(3);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const rows = await db.query<{ recipient: string }>('SELECT recipient FROM courier_messages');
      expect(rows.map((r) => r.recipient)).toEqual(['kept@example.com']);
      expect((await db.orm.select().from(courierMessages)).map((r) => r.recipient)).toEqual(['kept@example.com']);
    } finally {
      if (db.kind === 'postgres') await db.query('DROP SCHEMA IF EXISTS ' + (await db.query<{ s: string }>('SELECT current_schema() AS s'))[0]?.s + ' CASCADE');
      await db.close();
    }
  });
});
