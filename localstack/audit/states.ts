import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REDACTED_SECRET } from '../../shared/domain/config-export';

/**
 * What an object looked like before and after a write, for the audit log. Each kind of object a member
 * changes is read through the stack's own read call for it (the view its members already see, with the
 * caller's own credentials: a write refused to a caller reads nothing for them), and then redacted: a
 * secret's value never reaches the log.
 */

/** How to read the object a write changes: a read path (`:name` from the write's path, `@id` the id a create answered), and, when that path lists, which element. */
export interface StateRead {
  get: string;
  /** The element of the list whose `id` (or `client_id`) is this (`:name` or `@id`). */
  pick?: string;
}

type Place = { workspaceId: string | null; projectId: string | null };
type ReadFor = StateRead | ((place: Place) => StateRead | null);

const PROJECT: StateRead = { get: '/projects/:project_id' };
const invites = (place: Place): StateRead | null =>
  place.projectId ? { get: `/projects/${place.projectId}/invites`, pick: ':invite' } : place.workspaceId ? { get: `/workspaces/${place.workspaceId}/invites`, pick: ':invite' } : null;

/** The writes whose before/after the log keeps, by method and route pattern, and how to read their object. */
const CONTROL_PLANE: Record<string, ReadFor> = {
  'POST /workspaces': { get: '/workspaces/@id' },
  'PUT /workspaces/:workspace': { get: '/workspaces/:workspace' },
  'DELETE /workspaces/:workspace': { get: '/workspaces/:workspace' },
  'POST /workspaces/:workspace/add/:project_id': PROJECT,
  'POST /workspaces/:workspace/tokens': { get: '/workspaces/:workspace/tokens', pick: '@id' },
  'DELETE /workspaces/:workspace/tokens/:token_id': { get: '/workspaces/:workspace/tokens', pick: ':token_id' },
  'POST /workspaces/:workspace/invites': { get: '/workspaces/:workspace/invites', pick: '@id' },
  'DELETE /workspaces/:workspace/members/:member': { get: '/workspaces/:workspace/members', pick: ':member' },
  'PUT /workspaces/:workspace/members/:member/role': { get: '/workspaces/:workspace/members', pick: ':member' },
  'POST /workspaces/:workspace/subscription': { get: '/workspaces/:workspace/subscription' },
  'PUT /workspaces/:workspace/subscription': { get: '/workspaces/:workspace/subscription' },
  'POST /subscription': { get: '/subscription/@id' },
  'PUT /subscription/:subscription_id': { get: '/subscription/:subscription_id' },
  'POST /projects': { get: '/projects/@id' },
  'POST /normalized/projects': { get: '/projects/@id' },
  'PUT /projects/:project_id': PROJECT,
  'PATCH /projects/:project_id': PROJECT,
  'PATCH /projects/:project_id/revision/:revision_id': PROJECT,
  'PUT /normalized/projects/:project_id': PROJECT,
  'PATCH /normalized/projects/:project_id': PROJECT,
  'PATCH /normalized/projects/:project_id/revision/:revision_id': PROJECT,
  'DELETE /projects/:project_id': PROJECT,
  'PUT /projects/:project_id/environment': PROJECT,
  'POST /projects/:project_id/revisions/:revision_id/restore': PROJECT,
  'POST /projects/:project/tokens': { get: '/projects/:project/tokens', pick: '@id' },
  'DELETE /projects/:project/tokens/:token_id': { get: '/projects/:project/tokens', pick: ':token_id' },
  'POST /projects/:project/invites': { get: '/projects/:project/invites', pick: '@id' },
  'DELETE /projects/:project_id/members/:member': { get: '/projects/:project_id/members', pick: ':member' },
  'PUT /projects/:project_id/members/:member/role': { get: '/projects/:project_id/members', pick: ':member' },
  'PUT /invites/:invite/cancel': invites,
  'PUT /invites/:invite/link': invites,
  'DELETE /invites/:invite': invites,
  'POST /projects/:project_id/eventstreams': { get: '/projects/:project_id/eventstreams', pick: '@id' },
  'PUT /projects/:project_id/eventstreams/:event_stream_id': { get: '/projects/:project_id/eventstreams', pick: ':event_stream_id' },
  'DELETE /projects/:project_id/eventstreams/:event_stream_id': { get: '/projects/:project_id/eventstreams', pick: ':event_stream_id' },
  'POST /identity-schemas': { get: '/identity-schemas/@id' },
  'PATCH /identity-schemas/:schema_id': { get: '/identity-schemas/:schema_id' },
  'DELETE /identity-schemas/:schema_id': { get: '/identity-schemas/:schema_id' },
  'POST /projects/:project_id/cname': { get: '/projects/:project_id/cname', pick: '@id' },
  'PUT /projects/:project_id/cname/:cname_id': { get: '/projects/:project_id/cname', pick: ':cname_id' },
  'DELETE /projects/:project_id/cname/:cname_id': { get: '/projects/:project_id/cname', pick: ':cname_id' },
  'POST /projects/:project/branding': { get: '/projects/:project/branding' },
  'POST /projects/:project/branding/themes': { get: '/projects/:project/branding' },
  'PUT /projects/:project/branding/themes/:theme': { get: '/projects/:project/branding' },
  'DELETE /projects/:project/branding/themes/:theme': { get: '/projects/:project/branding' },
  'PUT /projects/:project/branding/themes/:theme/active': { get: '/projects/:project/branding' },
  'DELETE /projects/:project/branding/active': { get: '/projects/:project/branding' },
};

const CLIENT: StateRead = { get: '/admin/clients/:id' };
const DATA_PLANE: Record<string, ReadFor> = {
  'POST /admin/clients': { get: '/admin/clients/@id' },
  'PUT /admin/clients/:id': CLIENT,
  'PATCH /admin/clients/:id': CLIENT,
  'DELETE /admin/clients/:id': CLIENT,
  'POST /admin/clients/:id/secrets/rotate': CLIENT,
  'DELETE /admin/clients/:id/secrets/rotate': CLIENT,
  'PUT /admin/clients/:id/lifespans': CLIENT,
};

/** How to read the object of a write (`METHOD pattern`), or null when its before/after is not kept. */
export function stateReadFor(surface: 'control-plane' | 'data-plane', key: string, place: Place): StateRead | null {
  const read = (surface === 'data-plane' ? DATA_PLANE : CONTROL_PLANE)[key];
  if (!read) return null;
  return typeof read === 'function' ? read(place) : read;
}

// ---- redaction ----

const REDACTED = REDACTED_SECRET;
/** Keys whose values are secrets wherever they appear: passwords, client and stream secrets, key material, the config's `secrets` (cookie, cipher), an API key's or a hook's `value`; not their neighbours (`min_password_length`, `client_secret_expires_at`). */
const SECRET_KEY = /(^|_)(secret|password|passwd|private_key)$|^(token|value|api_key|cookie|cipher|d|p|q|dp|dq|qi|k)$/i;
/** A URI with a password in it (`smtps://user:pass@host`): the password goes. */
const URI_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:\s]*):[^/?#@\s]*@/i;

/** Whether a secret-named key's value is the secret itself (a string, or a list of them), not an object of settings (`password: {config}`) to look into. */
const holdsSecret = (v: unknown): boolean =>
  (typeof v === 'string' && v !== '') || typeof v === 'number' || (Array.isArray(v) && v.some((item) => item === null || typeof item !== 'object'));

/** `value` without any secret: secret-named keys' values replaced, passwords cut out of URIs. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 64) return REDACTED;
  if (typeof value === 'string') return URI_PASSWORD.test(value) ? value.replace(URI_PASSWORD, `$1:${REDACTED}@`) : value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && holdsSecret(v) ? REDACTED : redact(v, depth + 1);
    return out;
  }
  return value;
}

// ---- reading ----

const MAX_STATE = 512 * 1024;
const NOT_FORWARDED = new Set(['content-length', 'content-type', 'transfer-encoding', 'connection', 'expect', 'idempotency-key']);

/**
 * A list of the objects a write changed (tuples it inserted or removed), as the log keeps it: redacted, and
 * cut to the bound of any other state, with how many there were in all (`count`) and whether it was cut.
 */
export function listedState(key: string, items: readonly unknown[], count = items.length): Record<string, unknown> {
  const kept: unknown[] = [];
  let size = 0;
  for (const item of items) {
    const value = redact(item);
    size += JSON.stringify(value).length + 1;
    if (size > MAX_STATE) break;
    kept.push(value);
  }
  return { [key]: kept, count, ...(kept.length < count ? { truncated: true } : {}) };
}

function elementOf(list: unknown, id: string): unknown {
  const items = Array.isArray(list)
    ? list
    : (Object.values(list !== null && typeof list === 'object' ? list : {}).find((v) => Array.isArray(v)) as unknown[] | undefined);
  if (!items) return null;
  return items.find((item) => {
    const it = item as Record<string, unknown> | null;
    return it !== null && typeof it === 'object' && (it.id === id || it.client_id === id);
  }) ?? null;
}

/**
 * The object `read` names, as the caller would read it now (null when they may not, or it is gone), redacted.
 * `prefix` is the write's own path prefix (a project's admin API lives under its slug); `createdId` the id a
 * create answered.
 */
export async function readState(
  scope: FastifyInstance,
  req: FastifyRequest,
  read: StateRead,
  prefix: string,
  createdId: string | undefined,
): Promise<unknown> {
  const params = (req.params ?? {}) as Record<string, unknown>;
  const value = (ref: string): string | undefined => {
    if (ref === '@id') return createdId;
    const v = params[ref.slice(1)];
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  let missing = false;
  const path = read.get.replace(/[:@][a-z_]+/gi, (ref) => {
    const v = value(ref);
    if (v === undefined) missing = true;
    return encodeURIComponent(v ?? '');
  });
  const pick = read.pick ? value(read.pick) : undefined;
  if (missing || (read.pick && pick === undefined)) return null;
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(req.headers)) if (typeof v === 'string' && !NOT_FORWARDED.has(name)) headers[name] = v;
  const res = await scope.inject({ method: 'GET', url: `${prefix}${path}`, headers });
  if (res.statusCode !== 200 || res.body.length > MAX_STATE) return null;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return null;
  }
  return redact(pick === undefined ? body : elementOf(body, pick));
}
