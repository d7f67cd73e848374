/**
 * Known bugs and omissions of Ory's published spec itself: answers that are right on the wire (what
 * Ory's servers send) but that the spec describes wrongly. Each entry says why. A bug of the local stack
 * never goes here; it is fixed instead.
 *
 * `path` is the spec's (or orphan table's) template, e.g. `/projects/{project_id}`. An entry either names
 * where problems may be (`instancePath`, a JSON pointer where `*` stands for any one segment; left out,
 * every problem of the answer) or, with `alternative`, the schema the whole body must match instead of
 * the one the spec declares for that status (a response the spec omits).
 */
export interface AllowlistEntry {
  method: string;
  path: string;
  status?: number;
  instancePath?: string;
  alternative?: string;
  reason: string;
}

type Where = { method: string; path: string; status: number };

const FLOWS = ['login', 'registration', 'settings', 'recovery', 'verification'];

/** Every Kratos route of the local stack whose errors are errorGeneric. */
const KRATOS_ROUTES: [string, string][] = [
  ['GET', '/sessions/whoami'],
  ['GET', '/self-service/errors'],
  ['GET', '/self-service/logout/browser'],
  ['GET', '/self-service/logout'],
  ...FLOWS.flatMap((flow): [string, string][] => [
    ['GET', `/self-service/${flow}/browser`],
    ['GET', `/self-service/${flow}/api`],
    ['GET', `/self-service/${flow}/flows`],
    ['POST', `/self-service/${flow}`],
  ]),
];

const ERROR_STATUSES = [400, 401, 403, 404, 409, 500, 503];

/** The identity admin API's writes, which refuse a cross-origin browser write with Kratos' security_csrf_violation. */
const KRATOS_ADMIN_WRITES: [string, string][] = [
  ['POST', '/admin/identities'],
  ['PUT', '/admin/identities/{id}'],
  ['PATCH', '/admin/identities/{id}'],
  ['DELETE', '/admin/identities/{id}'],
  ['DELETE', '/admin/identities/{id}/sessions'],
  ['DELETE', '/admin/sessions/{id}'],
  ['PATCH', '/admin/sessions/{id}/extend'],
];

const ERROR_ID_ENUM =
  "genericErrorContent.id is an enum of the console API's two ids (feature_not_available, quota_exceeded), but " +
  'the same schema describes every Kratos error, whose ids are many more (session_inactive, ' +
  'security_csrf_violation, self_service_flow_expired, session_already_available, …; listed in CONTRACT.md)';

const GENERIC_ERROR_REF =
  'the operation declares its errors as genericError, the bare error content, while the console API wraps ' +
  'every error as errorGeneric {error: {…}} like all other console operations (CONTRACT.md, Errors)';

const FLOW_400 =
  'the spec declares only the flow for 400, but Kratos answers a request it cannot take as a flow submission ' +
  '(no or malformed flow id, an undecodable body) with errorGeneric, as for the same 400 of createBrowser…Flow';

const LOCATION_CHANGE =
  'errorBrowserLocationChangeRequired.error references errorGeneric, which nests a second {error}; Kratos ' +
  'sends the error content directly: {error: {id: browser_location_change_required, …}, redirect_browser_to}';

const HYDRA_DELETE_CLIENT =
  "deleteOAuth2Client declares its errors as genericError, but Hydra's handler writes them with the same " +
  'error writer as every other client operation (client/handler.go, x/error_enhancer.go): errorOAuth2 ' +
  '{error, error_description}, as the spec declares for get, set and patch';

const HYDRA_GENERIC_ERROR =
  "the operation declares its errors as genericError, but Hydra writes every admin error with one error writer " +
  '(x/error_enhancer.go): errorOAuth2 {error, error_description}, as the spec declares for the client and key operations';

/** Hydra operations the spec declares with genericError errors. */
const HYDRA_GENERIC_ERROR_OPS: [string, string][] = [
  ['PUT', '/admin/clients/{id}/lifespans'],
  ['GET', '/admin/trust/grants/jwt-bearer/issuers'],
  ['POST', '/admin/trust/grants/jwt-bearer/issuers'],
  ['GET', '/admin/trust/grants/jwt-bearer/issuers/{id}'],
  ['DELETE', '/admin/trust/grants/jwt-bearer/issuers/{id}'],
];
/** getProjectMetrics exists only in the 1.11 spec, whose `genericError` is the flat legacy shape; the control plane answers errorGeneric, as every other call of it. */
const METRICS_ERRORS =
  'getProjectMetrics is only in the 1.11 spec, which names the legacy flat genericError for its errors; the control plane answers errorGeneric ({error: {...}}) as for every call';

export const WIRE_ALLOWLIST: AllowlistEntry[] = [
  {
    method: 'GET',
    path: '/.well-known/ory/webauthn.js',
    status: 200,
    instancePath: '',
    reason:
      'getWebAuthnJavaScript declares its 200 as application/json (webAuthnJavaScript, a string), but the route is the script ' +
      'that flows load through their script node, which Kratos serves as text/javascript',
  },
  ...ERROR_STATUSES.map((status) => ({ method: 'GET', path: '/projects/{project_id}/metrics', status, alternative: 'errorGeneric', reason: METRICS_ERRORS })),
  ...KRATOS_ROUTES.map(([method, path]) => ({ method, path, instancePath: '/error/id', reason: ERROR_ID_ENUM })),
  ...KRATOS_ADMIN_WRITES.map(([method, path]) => ({ method, path, status: 403, instancePath: '/error/id', reason: ERROR_ID_ENUM })),
  ...FLOWS.map((flow) => ({ method: 'POST', path: `/self-service/${flow}`, status: 400, alternative: 'errorGeneric', reason: FLOW_400 })),
  ...FLOWS.map((flow) => ({ method: 'POST', path: `/self-service/${flow}`, status: 422, instancePath: '/error', reason: LOCATION_CHANGE })),
  ...(
    [
      ['DELETE', '/projects/{project_id}'],
      ['GET', '/projects/{project}/members'],
      ['DELETE', '/projects/{project}/members/{member}'],
      ['GET', '/console/active/project'],
      ['PUT', '/console/active/project'],
    ] as const
  ).flatMap(([method, path]) =>
    ERROR_STATUSES.map((status) => ({ method, path, status, alternative: 'errorGeneric', reason: GENERIC_ERROR_REF })),
  ),
  ...ERROR_STATUSES.map((status) => ({ method: 'DELETE', path: '/admin/clients/{id}', status, alternative: 'errorOAuth2', reason: HYDRA_DELETE_CLIENT })),
  ...HYDRA_GENERIC_ERROR_OPS.flatMap(([method, path]) =>
    ERROR_STATUSES.map((status) => ({ method, path, status, alternative: 'errorOAuth2', reason: HYDRA_GENERIC_ERROR })),
  ),
];

function matchesWhere(e: AllowlistEntry, answer: Where): boolean {
  return e.method === answer.method.toUpperCase() && e.path === answer.path && (e.status === undefined || e.status === answer.status);
}

/** The entries that accept another schema for the whole body of this answer. */
export function alternativeEntries(entries: AllowlistEntry[], answer: Where): (AllowlistEntry & { alternative: string })[] {
  return entries.filter((e): e is AllowlistEntry & { alternative: string } => e.alternative !== undefined && matchesWhere(e, answer));
}

/** The entry that allows this one problem of the answer, if any. */
export function matchAllowlist(entries: AllowlistEntry[], answer: Where & { problem: { instancePath: string } }): AllowlistEntry | undefined {
  return entries.find(
    (e) =>
      e.alternative === undefined &&
      matchesWhere(e, answer) &&
      (e.instancePath === undefined || pointerMatches(e.instancePath, answer.problem.instancePath)),
  );
}

function pointerMatches(pattern: string, pointer: string): boolean {
  const want = pattern.split('/');
  const got = pointer.split('/');
  return want.length === got.length && want.every((segment, i) => segment === '*' || segment === got[i]);
}
