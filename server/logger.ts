import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from './config';
import { maskUrl, REDACT_PATHS, REDACTED } from '../shared/redact';
import { traceLogFields } from '../shared/telemetry';

export { maskUrl, REDACT_PATHS };

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
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    base: { service: 'console' },
    // With tracing on, the trace and span a line was written in (nothing otherwise).
    mixin: traceLogFields,
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
