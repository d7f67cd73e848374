import { createHmac, randomBytes } from 'node:crypto';

/*
 * How a stream's requests are signed: HMAC-SHA256 with the stream's secret over `{timestamp}.{body}`, so a
 * receiver that checks the signature and refuses an old timestamp cannot be replayed a captured request.
 */
export const SIGNATURE_HEADER = 'ory-event-signature';
export const TIMESTAMP_HEADER = 'ory-event-timestamp';
export const DELIVERY_HEADER = 'ory-event-delivery';

export const newStreamSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** The signature header's value: `v1=` and the hex HMAC of `{timestamp}.{body}`. */
export const signBody = (secret: string, timestamp: number, body: string) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
