import { randomUUID } from 'node:crypto';
import type { EventAttributes, EventType } from '../../shared/domain/metrics';

/*
 * Recording what a project's data planes do. The flows of every domain call this, so it depends on no
 * other folder of the local stack (only the handle it writes with, as a shape): nothing it imports can
 * reach back into them.
 */

/** The database or a transaction of it, as far as recording needs it. */
export interface EventWriter {
  query(sql: string, params?: unknown[]): Promise<unknown[]>;
}

interface Event {
  nid: string;
  type: EventType;
  at: Date;
  attributes: EventAttributes;
}

/** The console's own tenant (the kernel's CONSOLE_NID, written out so that this folder imports no other). */
export const CONSOLE_TENANT = '00000000-0000-4000-8000-000000000c01';

const COLUMNS = 6;
const BATCH = 1000;

async function insert(q: EventWriter, events: Event[]): Promise<void> {
  for (let i = 0; i < events.length; i += BATCH) {
    const batch = events.slice(i, i + BATCH);
    const params: unknown[] = [];
    const values = batch.map((e, j) => {
      const attributes = cleanAttributes(e.attributes);
      params.push(randomUUID(), e.nid, e.type, e.at.toISOString(), attributes.identity_id ?? null, JSON.stringify(attributes));
      const n = j * COLUMNS;
      return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}::timestamptz, $${n + 5}::uuid, $${n + 6}::jsonb)`;
    });
    await q.query(`INSERT INTO project_events (id, nid, type, occurred_at, identity_id, attributes) VALUES ${values.join(', ')}`, params);
  }
}

/**
 * Records that a project's data plane did something (`type`, with its attributes), at the stack's clock.
 * Called where it happens, inside that write's transaction when there is one, so an event is recorded
 * exactly when what it reports was. The console's own tenant is no project: its events are not kept.
 */
export async function recordEvent(q: EventWriter, clock: { now(): Date }, nid: string, type: EventType, attributes: EventAttributes = {}): Promise<void> {
  if (nid === CONSOLE_TENANT) return;
  await insert(q, [{ nid, type, at: clock.now(), attributes }]);
}

/** Events counted in memory and written later, in as few statements as can be (`at` is when each happened). */
export async function recordEvents(q: EventWriter, events: Event[]): Promise<void> {
  await insert(q, events.filter((e) => e.nid !== CONSOLE_TENANT));
}

function cleanAttributes(attributes: EventAttributes): EventAttributes {
  const clean: EventAttributes = {};
  for (const [k, v] of Object.entries(attributes) as [keyof EventAttributes, string | undefined][]) if (v !== undefined && v !== '') clean[k] = v.slice(0, 512);
  return clean;
}
