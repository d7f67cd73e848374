import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableStore, type DurableStore } from '../../server/test-support/stack';
import { createProject, newUser } from '../test-support/control-plane';
import { pidOfLocalPort, startStackProcess, type StackProcess } from '../test-support/process';
import type { LocalStack } from '../index';

/**
 * Two local stacks, each its own process, on one PostgreSQL schema, both couriers sending one queue to a
 * project's SMTP server. One process is killed (SIGKILL) while it holds messages mid-dispatch: every message
 * still reaches the server exactly once. The server counts what it accepted (a message counts when the
 * server answers 250 to its DATA on a connection still open; a transaction whose client died before that
 * is void, as SMTP has it). Collected only when DATABASE_URL is set.
 */
const MESSAGES = 24;
/**
 * The stacks' COURIER_CLAIM_TIMEOUT_MS: short, so that the survivor takes over the dead one's claims within the
 * test, yet longer than any live dispatch here can last (the courier gives a server 10 s to answer DATA, and a
 * transaction the server holds longer is dropped by its client, so it is not counted either).
 */
const CLAIM_TIMEOUT_MS = 12_000;

interface Held {
  subject: string;
  session: SMTPServerSession;
  accept: () => void;
}

let store: DurableStore;
let admin: pg.Client;
let schema: string;
const instances: StackProcess[] = [];
const accepted = new Map<string, number>();
const held: Held[] = [];
const closedSessions = new Set<string>();
let holding = true;
let smtp: SMTPServer;
let smtpPort: number;

function readSubject(stream: SMTPServerDataStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('end', () => resolve(/^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString('utf8'))?.[1]?.trim() ?? ''));
  });
}

/** Waits for `condition`, checking every 50 ms, up to `ms`. */
async function until(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  smtp = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      readSubject(stream).then((subject) => {
        const accept = () => {
          accepted.set(subject, (accepted.get(subject) ?? 0) + 1);
          callback();
        };
        if (holding) held.push({ subject, session, accept });
        else accept();
      }, callback);
    },
    onClose(session) {
      closedSessions.add(session.id);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  store = await createDurableStore();
  schema = store.options.dbSchema!;
  const databaseUrl = store.options.databaseUrl!;
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const env = { DATABASE_URL: url.toString(), LOCAL_MAILBOX: 'false', COURIER_CLAIM_TIMEOUT_MS: String(CLAIM_TIMEOUT_MS), PUBLIC_URL: 'http://localhost:3000' };
  // Together: the migrations run once, under their advisory lock.
  instances.push(...(await Promise.all([startStackProcess(env), startStackProcess(env)])));
}, 120_000);

afterAll(async () => {
  holding = false;
  for (const h of held.splice(0)) h.accept();
  await Promise.all(instances.map((i) => i.stop()));
  await admin?.end();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await store?.dispose();
});

describe('a local stack killed while its courier sends', () => {
  it('leaves no message unsent and none sent twice: the survivor takes over the dead one’s claims', async () => {
    const owner = await newUser({ url: instances[0]!.url } as LocalStack, 'Owner');
    const project = await createProject(owner, 'Crash');
    const patched = await owner.projects.patchProject({
      projectId: project.id,
      jsonPatch: [{ op: 'add', path: '/services/identity/config/courier', value: { smtp: { connection_uri: `smtp://127.0.0.1:${smtpPort}/?disable_starttls=true`, from_address: 'no-reply@example.com' } } }],
    });
    expect(patched.status).toBe(200);

    // A batch queued at once, as a burst of recovery requests leaves it.
    const subjects = Array.from({ length: MESSAGES }, (_, i) => `crash ${i} ${randomUUID()}`);
    const rows = subjects.map((_, i) => `($${4 * i + 1}::uuid, $${4 * i + 2}::uuid, 'email', 'queued', $${4 * i + 3}, $${4 * i + 4}, 'Your code is 123456', 'recovery_code_valid', 0)`);
    await admin.query(
      `INSERT INTO "${schema}".courier_messages (id, nid, type, status, recipient, subject, body, template_type, send_count) VALUES ${rows.join(', ')}`,
      subjects.flatMap((subject, i) => [randomUUID(), project.id, `user-${i}@example.com`, subject]),
    );

    // Every message is mid-dispatch: its DATA sent, the server's answer held back.
    await until(() => held.length === MESSAGES, 20_000, `${MESSAGES} messages in flight (${held.length})`);
    const pids = instances.map((i) => i.pid);
    const owners = await Promise.all(held.map((h) => pidOfLocalPort(h.session.remotePort, pids)));
    const perPid = pids.map((pid) => owners.filter((o) => o === pid).length);
    expect(perPid.reduce((a, b) => a + b, 0)).toBe(MESSAGES);
    const victimIndex = perPid[0]! >= perPid[1]! ? 0 : 1;
    const victim = instances[victimIndex]!;
    const survivor = instances[1 - victimIndex]!;
    const inFlightOnVictim = held.filter((_, i) => owners[i] === victim.pid);
    expect(inFlightOnVictim.length).toBeGreaterThan(0);

    await victim.kill();
    // The kernel closes the dead process's connections: its transactions end without an answer.
    await until(() => inFlightOnVictim.every((h) => closedSessions.has(h.session.id)), 10_000, "the dead instance's connections to close");
    holding = false;
    for (const h of held.splice(0)) if (!closedSessions.has(h.session.id)) h.accept();

    // The survivor finds the dead one's claims stale and sends them itself.
    await until(() => subjects.every((s) => accepted.has(s)), CLAIM_TIMEOUT_MS + 15_000, `every message accepted (${accepted.size}/${MESSAGES})`);
    for (const subject of subjects) expect(accepted.get(subject), subject).toBe(1);
    expect(accepted.size).toBe(MESSAGES);
    await until(
      async () => (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".courier_messages WHERE status = 'sent'`)).rows[0]!.n === MESSAGES,
      5_000,
      'every message recorded as sent',
    );
    // And the survivor still answers.
    expect((await fetch(`${survivor.url}/health/ready`)).status).toBe(200);
  });
});
