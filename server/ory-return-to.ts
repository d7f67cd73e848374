import type { FastifyRequest } from 'fastify';
import { safeReturnToUrl } from '../shared/domain/return-to';

/** `return_to` values carried in a JSON or form body sent to /.ory (a flow submission may carry one). */
export function returnToInBody(req: FastifyRequest): string[] {
  const body = req.body;
  if (!Buffer.isBuffer(body) || body.length === 0) return [];
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const text = body.toString('utf8');
  if (!text.includes('return_to')) return [];
  if (type.includes('application/x-www-form-urlencoded')) return new URLSearchParams(text).getAll('return_to').filter((value) => value !== '');
  if (!type.includes('json')) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    const value = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).return_to : undefined;
    if (value === undefined || value === null || value === '') return [];
    return [typeof value === 'string' ? value : JSON.stringify(value)];
  } catch {
    return [];
  }
}

/** True when `location` (absolute or relative) resolves to publicUrl's origin. */
export function staysOnOrigin(location: string, publicUrl: string): boolean {
  try {
    return new URL(location, publicUrl).origin === new URL(publicUrl).origin && !/[\\\s]/.test(location);
  } catch {
    return false;
  }
}

/** A flow answered by the identity provider keeps its `return_to` only when it points at our origin. */
export function withoutForeignReturnTo(body: Buffer, contentType: string | null, publicOrigin: string): Buffer {
  if (!contentType?.includes('json') || !body.includes('"return_to"')) return body;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return body;
    const flow = parsed as Record<string, unknown>;
    if (flow.return_to === undefined || flow.return_to === null || flow.return_to === '') return body;
    if (safeReturnToUrl(flow.return_to, publicOrigin) !== null) return body;
    delete flow.return_to;
    return Buffer.from(JSON.stringify(flow));
  } catch {
    return body;
  }
}
