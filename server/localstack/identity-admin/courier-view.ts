import type { Message } from '@ory/client';
import type { CourierMessageRow } from '../identity/schema';

/** A courier message in Ory's wire format; the local stack delivers to its mailbox at once, so each was sent once. */
export function messageView(row: CourierMessageRow): Message {
  return {
    id: row.id,
    status: row.status as Message['status'],
    type: row.type as Message['type'],
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    template_type: row.template_type as Message['template_type'],
    send_count: row.status === 'sent' ? 1 : 0,
    dispatches: [],
    created_at: row.created_at.toISOString(),
    updated_at: row.created_at.toISOString(),
  } satisfies Message;
}
