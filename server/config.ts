import { isIP } from 'node:net';
import { z } from 'zod';
import { UPSTREAM_TIMEOUT_MS } from '../shared/constants';

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

/** A DNS name: dot-separated labels of letters, digits and inner hyphens (no scheme, port or path). */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const port = () =>
  z.coerce
    .number({ message: 'expected a port number' })
    .int({ message: 'expected a whole port number' })
    .min(0, { message: 'expected a port number between 0 and 65535' })
    .max(65535, { message: 'expected a port number between 0 and 65535' });

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
  PROJECT_API_URL: optional(z.string().trim()),
  DATA_DIR: optional(z.string().trim().min(1, { message: 'expected a directory path' })),
  DATABASE_URL: optional(
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, { message: 'expected a PostgreSQL URL, e.g. postgres://user:pass@host:5432/db' }),
  ),
  LOCALSTACK_PORT: optional(port()),
  UPSTREAM_TIMEOUT_MS: optional(
    z.coerce
      .number({ message: 'expected a number of milliseconds' })
      .int({ message: 'expected a whole number of milliseconds' })
      .min(1, { message: 'expected a positive number of milliseconds' })
      .max(600_000, { message: 'expected at most 600000 milliseconds' }),
  ),
  LOG_LEVEL: optional(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'expected one of fatal, error, warn, info, debug, trace, silent',
    }),
  ),
  TRUST_PROXY: optional(booleanFlag),
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
  /** Where a project's data plane lives: a URL template with a `{slug}` placeholder. */
  projectApiUrl?: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  localstackPort: number;
  upstreamTimeoutMs: number;
  logLevel: LogLevel;
  trustProxy: boolean;
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
  const publicUrl = e.PUBLIC_URL ?? 'http://localhost:3000';
  return {
    port,
    host: e.HOST ?? '0.0.0.0',
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    backofficeUrl: e.BACKOFFICE_URL,
    orySdkUrl: e.ORY_SDK_URL,
    projectApiUrl: e.PROJECT_API_URL?.replace(/\/+$/, ''),
    dataDir: e.DATA_DIR ?? './.data',
    databaseUrl: e.DATABASE_URL,
    localstackPort,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS ?? UPSTREAM_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL ?? 'info',
    trustProxy: e.TRUST_PROXY ?? false,
  };
}
