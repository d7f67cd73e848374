import { serveMetrics } from '../shared/metrics';
import { startTracing } from '../shared/telemetry';
import { startLocalStack } from './index';
import { startSamlTestIdp } from './saml-idp/idp';

/**
 * Standalone local stack (`npm run localstack`): LOCALSTACK_PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL,
 * LOCAL_MAILBOX, LOCAL_SMTP_PORT, LOCAL_DNS_PORT, DNS_SERVERS, REDIS_URL, METRICS_PORT (Prometheus metrics at /metrics; unset, none),
 * LOCAL_SAML_IDP (`false`: no local SAML identity provider) and LOCAL_SAML_IDP_PORT (its port; 0, any free one),
 * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (OpenTelemetry traces over OTLP/HTTP; unset, none) and
 * OTEL_SERVICE_NAME (default console-localstack), COURIER_CLAIM_TIMEOUT_MS (how long a message claimed by an instance that
 * died mid-dispatch waits before another sends it; default 60000, must exceed the longest dispatch).
 */
function envPort(name: string, fallback: string): number {
  const raw = process.env[name] ?? fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${name} must be a port number between 0 and 65535, got "${raw}"`);
    process.exit(1);
  }
  return port;
}

function envMilliseconds(name: string): number {
  const raw = process.env[name] ?? '';
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000) {
    console.error(`${name} must be a whole number of milliseconds between 1 and 3600000, got "${raw}"`);
    process.exit(1);
  }
  return ms;
}

const tracesUrl = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${process.env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : undefined);
if (tracesUrl && !/^https?:\/\//.test(tracesUrl)) {
  console.error(`the OTLP endpoint must be an http(s) URL, got "${tracesUrl}"`);
  process.exit(1);
}
// Before the stack is built: its app and its database pool are instrumented as they are made.
const stopTracing = tracesUrl ? await startTracing({ serviceName: process.env.OTEL_SERVICE_NAME || 'console-localstack', otlpTracesUrl: tracesUrl }) : undefined;

const stack = await startLocalStack({
  port: envPort('LOCALSTACK_PORT', '4455'),
  host: process.env.LOCALSTACK_HOST ?? '127.0.0.1',
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { dataDir: process.env.DATA_DIR ?? './.data' }),
  uiUrl: process.env.PUBLIC_URL ?? 'http://localhost:3000',
  mailbox: process.env.LOCAL_MAILBOX !== 'false',
  mailboxSmtpPort: envPort('LOCAL_SMTP_PORT', '1025'),
  localDnsPort: envPort('LOCAL_DNS_PORT', '0'),
  ...(process.env.DNS_SERVERS ? { dnsServers: process.env.DNS_SERVERS.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
  ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
  ...(process.env.COURIER_CLAIM_TIMEOUT_MS ? { courierClaimTimeoutMs: envMilliseconds('COURIER_CLAIM_TIMEOUT_MS') } : {}),
});

const metricsPort = process.env.METRICS_PORT === undefined ? undefined : envPort('METRICS_PORT', '0');
const metricsServer = metricsPort === undefined ? undefined : await serveMetrics(metricsPort, process.env.LOCALSTACK_HOST ?? '127.0.0.1');
if (metricsServer) console.info(`Prometheus metrics at ${metricsServer.url}`);

const samlIdp = process.env.LOCAL_SAML_IDP === 'false' ? undefined : await startSamlTestIdp({ port: envPort('LOCAL_SAML_IDP_PORT', '0') });
if (samlIdp) console.info(`Local SAML identity provider (this machine only): metadata at ${samlIdp.metadataUrl}`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.info(`${signal} received, closing the local stack`);
  try {
    await stack.close();
    await metricsServer?.close();
    await samlIdp?.close();
    await stopTracing?.();
    process.exit(0);
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
