import { serveMetrics } from '../shared/metrics';
import { startLocalStack } from './index';
import { startSamlTestIdp } from './saml-idp/idp';

/**
 * Standalone local stack (`npm run localstack`): LOCALSTACK_PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL,
 * LOCAL_MAILBOX, LOCAL_SMTP_PORT, LOCAL_DNS_PORT, DNS_SERVERS, REDIS_URL, METRICS_PORT (Prometheus metrics at /metrics; unset, none),
 * LOCAL_SAML_IDP (`false`: no local SAML identity provider) and LOCAL_SAML_IDP_PORT (its port; 0, any free one).
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
    process.exit(0);
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
