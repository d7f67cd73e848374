import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from './config';

/** Secrets never reach a log line: headers that carry credentials and any field named like a secret. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-session-token"]',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'headers["x-session-token"]',
  'cookie',
  'authorization',
  'password',
  'token',
  'secret',
  '*.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.session_token',
  '*.*.password',
  '*.*.token',
  '*.*.secret',
];

/** Query parameters that carry secrets (logout tokens, recovery/verification codes, CSRF tokens). */
export function maskUrl(url: string): string {
  return url.replace(/([?&](?:token|code|csrf_token|session_token|secret|password)=)[^&#]*/gi, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string };
}

/** The app's logger; `destination` (default stdout) lets tests read exactly what would be written. */
export function createLogger(level: LogLevel = 'info', options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'console' },
    serializers: {
      // Fastify's request line, without headers and with secrets masked in the query string.
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: maskUrl(req.url ?? ''),
        host: req.host,
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
    },
    ...options,
  };
  return destination ? pino(settings, destination) : pino(settings);
}

export type { Logger };
