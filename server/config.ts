import { isIP } from 'node:net';
import { z } from 'zod';
import { UPSTREAM_TIMEOUT_MS } from '../shared/constants';
import { REQUEST_TIMEOUT_MS } from '../shared/request-timeout';

const httpUrl = (example: string) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.protocol === 'http:' || url.protocol === 'https:';
        } catch {
          return false;
        }
      },
      { message: `expected an absolute http(s) URL, e.g. ${example}` },
    )
    .transform((value) => value.replace(/\/+$/, ''));

/** Stands for the project's slug in PROJECT_API_URL. */
export const SLUG_PLACEHOLDER = '{slug}';
const SAMPLE_SLUG = 'sample-slug-0';

/** Where a project's data-plane API lives, as a URL template: absolute http(s) with `{slug}` in the host or path. */
const projectApiTemplate = z
  .string()
  .trim()
  .refine(
    (value) => {
      if (!value.includes(SLUG_PLACEHOLDER)) return false;
      try {
        const url = new URL(value.split(SLUG_PLACEHOLDER).join(SAMPLE_SLUG));
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
        if (url.username || url.password || url.search || url.hash) return false;
        return url.hostname.includes(SAMPLE_SLUG) || url.pathname.includes(SAMPLE_SLUG);
      } catch {
        return false;
      }
    },
    { message: 'expected an absolute http(s) URL with {slug} in its host or path, e.g. https://{slug}.projects.oryapis.com' },
  )
  .transform((value) => value.replace(/\/+$/, ''));

/** Where a project's API lives when the console talks to the cloud and PROJECT_API_URL is unset. */
export const CLOUD_PROJECT_API_URL = 'https://{slug}.projects.oryapis.com';

/** Where the embedded local stack serves each project's API. */
export function localProjectApiUrl(localStackUrl: string): string {
  return `${localStackUrl.replace(/\/+$/, '')}/project-api/${SLUG_PLACEHOLDER}`;
}

/** A DNS name: dot-separated labels of letters, digits and inner hyphens (no scheme, port or path). */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const port = () =>
  z.coerce
    .number({ message: 'expected a port number' })
    .int({ message: 'expected a whole port number' })
    .min(0, { message: 'expected a port number between 0 and 65535' })
    .max(65535, { message: 'expected a port number between 0 and 65535' });

/** How long a signed-in page's HTML waits for its first answers by default (server/first-data.ts). */
export const FIRST_ANSWERS_WAIT_MS = 800;

/**
 * How long a signed-in page's code waits for its first answers before it is named anyway (server/static-client.ts):
 * answers in by then (the usual case) let a painted page load its code once it is on screen; later ones, from
 * a slow upstream, do not hold the code back any longer.
 */
export const FIRST_CODE_HOLD_MS = 250;

const milliseconds = () =>
  z.coerce
    .number({ message: 'expected a number of milliseconds' })
    .int({ message: 'expected a whole number of milliseconds' })
    .min(1, { message: 'expected a positive number of milliseconds' })
    .max(600_000, { message: 'expected at most 600000 milliseconds' });

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Empty strings count as unset, so `FOO=` in a shell or compose file means "use the default". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const envSchema = z.object({
  PORT: optional(port()),
  HOST: optional(
    z
      .string()
      .trim()
      .refine((value) => isIP(value) !== 0 || HOST_NAME.test(value), {
        message: 'expected a host name or IP address to listen on, e.g. 0.0.0.0, ::, 127.0.0.1 or localhost',
      }),
  ),
  PUBLIC_URL: optional(httpUrl('http://localhost:3000')),
  BACKOFFICE_URL: optional(httpUrl('https://api.console.ory.sh')),
  ORY_SDK_URL: optional(httpUrl('https://project.console.ory.sh')),
  PROJECT_API_URL: optional(projectApiTemplate),
  DATA_DIR: optional(z.string().trim().min(1, { message: 'expected a directory path' })),
  DATABASE_URL: optional(
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, { message: 'expected a PostgreSQL URL, e.g. postgres://user:pass@host:5432/db' }),
  ),
  LOCALSTACK_PORT: optional(port()),
  UPSTREAM_TIMEOUT_MS: optional(milliseconds()),
  REQUEST_TIMEOUT_MS: optional(milliseconds()),
  FIRST_ANSWERS_WAIT_MS: optional(milliseconds()),
  FIRST_CODE_HOLD_MS: optional(milliseconds()),
  MUTATION_RATE_LIMIT: optional(
    z.coerce
      .number({ message: 'expected a number of calls' })
      .int({ message: 'expected a whole number of calls' })
      .min(1, { message: 'expected at least 1 call' })
      .max(1_000_000, { message: 'expected at most 1000000 calls' }),
  ),
  MUTATION_RATE_WINDOW_MS: optional(milliseconds()),
  EXPORT_RATE_LIMIT: optional(
    z.coerce
      .number({ message: 'expected a number of exports' })
      .int({ message: 'expected a whole number of exports' })
      .min(1, { message: 'expected at least 1 export' })
      .max(10_000, { message: 'expected at most 10000 exports' }),
  ),
  LOG_LEVEL: optional(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'expected one of fatal, error, warn, info, debug, trace, silent',
    }),
  ),
  TRUST_PROXY: optional(booleanFlag),
  LOCAL_MAILBOX: optional(booleanFlag),
  LOCAL_SMTP_PORT: optional(port()),
  LOCAL_DNS_PORT: optional(port()),
  DNS_SERVERS: optional(
    z
      .string()
      .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
      .refine((list) => list.every((s) => /^[0-9A-Fa-f:.[\]]+$/.test(s)), { message: 'expected DNS server addresses separated by commas, such as 1.1.1.1,127.0.0.1:5353' }),
  ),
  ANALYTICS_URL: optional(httpUrl('https://analytics.example.com')),
  ANALYTICS_REQUIRE_CONSENT: optional(booleanFlag),
  METRICS_PORT: optional(port()),
  REDIS_URL: optional(z.string().trim().regex(/^rediss?:\/\//, { message: 'expected a Redis URL, e.g. redis://127.0.0.1:6379' })),
  COURIER_CLAIM_TIMEOUT_MS: optional(milliseconds()),
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(httpUrl('http://collector:4318')),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional(httpUrl('http://collector:4318/v1/traces')),
  OTEL_SERVICE_NAME: optional(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, { message: 'expected a service name of letters, digits, dots, dashes or underscores, e.g. console' }),
  ),
});

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Origin of publicUrl (scheme://host[:port]). */
  publicOrigin: string;
  backofficeUrl: string | undefined;
  orySdkUrl: string | undefined;
  /**
   * URL template of a project's data-plane API (`{slug}` stands for the project's slug). Unset only until
   * the embedded local stack has started (main.ts fills it in then, like the upstream URLs).
   */
  projectApiUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  localstackPort: number;
  upstreamTimeoutMs: number;
  /** Time a client has to send its whole request (headers and body) before it is answered 408. */
  requestTimeoutMs: number;
  /** How long a signed-in page's HTML waits for its first answers; what is not in by then the page asks for itself. */
  firstAnswersWaitMs: number;
  /** How long a signed-in page's code waits for those answers before it is named in the head anyway. */
  firstCodeHoldMs: number;
  /** Mutation calls one session (or, signed out, one address) may make per window. */
  mutationRateLimit: { max: number; windowMs: number };
  /** Exports (queries that read a whole log or project) one session may start per window, as mutations are counted. */
  exportRateLimit: { max: number; windowMs: number };
  logLevel: LogLevel;
  trustProxy: boolean;
  /**
   * Whether the embedded local stack serves its mailbox (every user's recovery and verification codes), to
   * loopback clients only. On for development; the container image turns it off.
   */
  localMailbox: boolean;
  /** The local mailbox's SMTP port on 127.0.0.1 (0: a free one). */
  localSmtpPort: number;
  /** The local DNS server's UDP port on 127.0.0.1 (0: a free one), where custom domains are looked up. */
  localDnsPort: number;
  /** DNS servers the embedded local stack looks custom domains up in instead of its local DNS server. */
  dnsServers: string[] | undefined;
  /** Where /ingest forwards analytics (the embedded local stack when none is set and it runs); unset drops them. */
  analyticsUrl: string | undefined;
  /** Whether the browser must ask before sending analytics: always off the local stack (spec §1), on it when asked to. */
  analyticsConsentRequired: boolean;
  /** Where Prometheus metrics are served (GET /metrics on HOST); unset, nowhere. */
  metricsPort: number | undefined;
  /** Shared counters (rate limits) for several instances; unset, each instance counts on its own. */
  redisUrl: string | undefined;
  /**
   * How long a courier message claimed by an embedded local stack that died mid-dispatch waits before another
   * instance sends it (default 60 s); it must exceed the longest dispatch.
   */
  courierClaimTimeoutMs: number | undefined;
  /**
   * OpenTelemetry tracing (shared/telemetry.ts): spans sent over OTLP/HTTP to `tracesUrl`. Unset (no
   * OTEL_EXPORTER_OTLP_ENDPOINT nor OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), tracing is off.
   */
  tracing: { tracesUrl: string; serviceName: string } | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment into a typed config; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const value = env[name];
      return `${name}=${JSON.stringify(value ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const port = e.PORT ?? 3000;
  const localstackPort = e.LOCALSTACK_PORT ?? 4455;
  if (!e.BACKOFFICE_URL && !e.ORY_SDK_URL && port !== 0 && port === localstackPort) {
    throw new ConfigError([`LOCALSTACK_PORT=${JSON.stringify(env.LOCALSTACK_PORT ?? '')}: must differ from PORT (${port}), or be 0 for a random free port`]);
  }
  if (port === 0 && !e.PUBLIC_URL) {
    throw new ConfigError(['PUBLIC_URL="": set it when PORT is 0 (a random free port): the console must know the origin browsers open']);
  }
  // The default follows PORT, so `PORT=3901 npm start` opened in a browser is its own origin.
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    port,
    // Only this machine by default; a container (see Dockerfile) sets HOST=0.0.0.0.
    host: e.HOST ?? 'localhost',
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    backofficeUrl: e.BACKOFFICE_URL,
    orySdkUrl: e.ORY_SDK_URL,
    projectApiUrl: e.PROJECT_API_URL ?? (e.BACKOFFICE_URL || e.ORY_SDK_URL ? CLOUD_PROJECT_API_URL : undefined),
    dataDir: e.DATA_DIR ?? './.data',
    databaseUrl: e.DATABASE_URL,
    localstackPort,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS ?? UPSTREAM_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS ?? REQUEST_TIMEOUT_MS,
    firstAnswersWaitMs: e.FIRST_ANSWERS_WAIT_MS ?? FIRST_ANSWERS_WAIT_MS,
    firstCodeHoldMs: e.FIRST_CODE_HOLD_MS ?? FIRST_CODE_HOLD_MS,
    mutationRateLimit: { max: e.MUTATION_RATE_LIMIT ?? 300, windowMs: e.MUTATION_RATE_WINDOW_MS ?? 60_000 },
    exportRateLimit: { max: e.EXPORT_RATE_LIMIT ?? 10, windowMs: e.MUTATION_RATE_WINDOW_MS ?? 60_000 },
    logLevel: e.LOG_LEVEL ?? 'info',
    trustProxy: e.TRUST_PROXY ?? false,
    localMailbox: e.LOCAL_MAILBOX ?? true,
    localSmtpPort: e.LOCAL_SMTP_PORT ?? 1025,
    localDnsPort: e.LOCAL_DNS_PORT ?? 0,
    dnsServers: e.DNS_SERVERS,
    analyticsUrl: e.ANALYTICS_URL,
    // Off the local stack consent is always asked for (spec §1); the variable cannot turn that off.
    analyticsConsentRequired: Boolean(e.BACKOFFICE_URL || e.ORY_SDK_URL) || (e.ANALYTICS_REQUIRE_CONSENT ?? false),
    redisUrl: e.REDIS_URL,
    metricsPort: e.METRICS_PORT,
    courierClaimTimeoutMs: e.COURIER_CLAIM_TIMEOUT_MS,
    tracing: tracingConfig(e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, e.OTEL_EXPORTER_OTLP_ENDPOINT, e.OTEL_SERVICE_NAME),
  };
}

/**
 * Where spans go, by OpenTelemetry's own variables: the traces endpoint as given, or the base endpoint with
 * `/v1/traces` appended (as OpenTelemetry's SDKs do); neither, no tracing.
 */
function tracingConfig(tracesEndpoint: string | undefined, endpoint: string | undefined, serviceName: string | undefined): Config['tracing'] {
  const tracesUrl = tracesEndpoint ?? (endpoint ? `${endpoint}/v1/traces` : undefined);
  return tracesUrl ? { tracesUrl, serviceName: serviceName ?? 'console' } : undefined;
}
