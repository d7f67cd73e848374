/**
 * The support page's diagnostic report: what a support engineer needs to place a problem (the browser, the
 * console's version, the project and its environment, the time, the last failed calls) and nothing that
 * identifies or authenticates anyone. It is built from these fields alone, and every text in it is passed
 * through `redact` as well, so an address, a token or a cookie that slipped into a user agent or a procedure
 * name does not leave the browser.
 */
export interface DiagnosticInput {
  userAgent: string;
  consoleVersion: string | null;
  project: { id: string; environment: string | null } | null;
  now: Date;
  failures: ReadonlyArray<{ procedure: string; code: string; status: number | null; at: string }>;
}

const REDACTED = '[redacted]';

/** Texts that are secrets or personal data, each replaced whole. Order matters: the widest patterns first. */
const PATTERNS: ReadonlyArray<RegExp> = [
  // Cookie and Set-Cookie headers, and `name=value` pairs of session and CSRF cookies.
  /\b(?:set-)?cookie\s*[:=]\s*[^\n]*/gi,
  /\b(?:ory_[a-z_]*session[a-z_]*|ory_kratos_[a-z_]*|csrf_token[a-z0-9_]*|[a-z_]*session[a-z_]*)=[^;\s]*/gi,
  // Authorization headers and bearer or basic credentials.
  /\bauthorization\s*[:=]\s*[^\n]*/gi,
  /\b(?:bearer|basic)\s+[a-z0-9._~+/=-]+/gi,
  // Ory's tokens and keys (ory_pat_…, ory_st_…, ory_apikey_…), and JSON Web Tokens.
  /\bory_[a-z]+_[a-z0-9._-]+/gi,
  /\beyJ[a-z0-9_-]*\.[a-z0-9_-]+\.[a-z0-9_-]*/gi,
  // Query parameters that carry a secret or a token.
  /\b(?:token|secret|password|code|flow_token|session_token|api_key|key)=[^&\s]*/gi,
  // Email addresses.
  /[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi,
];

/** Replaces every secret or personal datum in a text with "[redacted]". */
export function redact(text: string): string {
  return PATTERNS.reduce((out, pattern) => out.replace(pattern, REDACTED), text);
}

/** The report as plain text, ready to paste into a support request. */
export function diagnosticReport(input: DiagnosticInput): string {
  const project = input.project ? `${input.project.id} (environment: ${input.project.environment ?? 'unknown'})` : 'none selected';
  const failures = input.failures.length
    ? input.failures.map((f) => `  ${f.at}  ${f.procedure}  ${f.code}${f.status === null ? '' : ` (${f.status})`}`)
    : ['  none'];
  const lines = [
    'Console diagnostic report',
    `Time: ${input.now.toISOString()}`,
    `Console version: ${input.consoleVersion ?? 'unknown'}`,
    `Browser: ${input.userAgent}`,
    `Project: ${project}`,
    'Recent failed requests:',
    ...failures,
  ];
  return lines.map(redact).join('\n');
}
