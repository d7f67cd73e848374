import type { Message, MessageDispatch } from '@ory/client';
import type { CourierDispatchRow, CourierMessageRow } from '../identity/schema';

export function dispatchView(row: CourierDispatchRow): MessageDispatch {
  return {
    id: row.id,
    message_id: row.message_id,
    status: row.status as MessageDispatch['status'],
    ...(row.error ? { error: row.error as object } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A courier message in Ory's wire format, with its dispatch attempts (oldest first). */
export function messageView(row: CourierMessageRow, dispatches: CourierDispatchRow[] = []): Message {
  return {
    id: row.id,
    status: row.status as Message['status'],
    type: row.type as Message['type'],
    channel: row.type === 'phone' ? 'sms' : 'email',
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    template_type: row.template_type as Message['template_type'],
    send_count: row.send_count,
    dispatches: dispatches.map(dispatchView),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  } satisfies Message;
}
