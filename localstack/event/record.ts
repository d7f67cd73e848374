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

const COLUMNS = 7;
const BATCH = 1000;

/** What a stream receives for an event (the body of its signed POST). */
export function streamPayload(id: string, e: Event, attributes: EventAttributes): Record<string, unknown> {
  return { id, type: e.type, project_id: e.nid, occurred_at: e.at.toISOString(), attributes };
}

/*
 * One statement per batch: the events are inserted, and each is queued for every active https stream of
 * its project (event_streams, event_stream_deliveries; SQL only, so this folder imports no other), so an
 * event is queued for delivery exactly when it is recorded, and once; each queued delivery counts one
 * `event_stream_events` of the project's usage that day (usage_counters), in the same statement.
 */
async function insert(q: EventWriter, events: Event[]): Promise<void> {
  for (let i = 0; i < events.length; i += BATCH) {
    const batch = events.slice(i, i + BATCH);
    const params: unknown[] = [];
    const values = batch.map((e, j) => {
      const attributes = cleanAttributes(e.attributes);
      const id = randomUUID();
      params.push(id, e.nid, e.type, e.at.toISOString(), attributes.identity_id ?? null, JSON.stringify(attributes), JSON.stringify(streamPayload(id, e, attributes)));
      const n = j * COLUMNS;
      return `($${n + 1}::uuid, $${n + 2}::uuid, $${n + 3}::text, $${n + 4}::timestamptz, $${n + 5}::uuid, $${n + 6}::jsonb, $${n + 7}::jsonb)`;
    });
    await q.query(
      `WITH ev (id, nid, type, occurred_at, identity_id, attributes, payload) AS (VALUES ${values.join(', ')}),
       recorded AS (INSERT INTO project_events (id, nid, type, occurred_at, identity_id, attributes) SELECT id, nid, type, occurred_at, identity_id, attributes FROM ev),
       queued AS (
         INSERT INTO event_stream_deliveries (id, stream_id, event_id, event_type, payload, status, attempts, next_attempt_at, created_at, updated_at)
         SELECT gen_random_uuid(), s.id, ev.id, ev.type, ev.payload, 'pending', 0, ev.occurred_at, ev.occurred_at, ev.occurred_at
         FROM ev JOIN event_streams s ON s.project_id = ev.nid AND s.status = 'active' AND s.type = 'https'
         RETURNING event_id)
       INSERT INTO usage_counters (project_id, day, metric, count)
       SELECT ev.nid, (ev.occurred_at AT TIME ZONE 'UTC')::date, 'event_stream_events', count(*)
       FROM queued JOIN ev ON ev.id = queued.event_id GROUP BY 1, 2
       ON CONFLICT (project_id, metric, day) DO UPDATE SET count = usage_counters.count + EXCLUDED.count`,
      params,
    );
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
