import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, localProjectApiUrl } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: 'localhost',
      publicUrl: 'http://localhost:3000',
      publicOrigin: 'http://localhost:3000',
      backofficeUrl: undefined,
      orySdkUrl: undefined,
      projectApiUrl: undefined,
      dataDir: './.data',
      databaseUrl: undefined,
      localstackPort: 4455,
      upstreamTimeoutMs: 30_000,
      requestTimeoutMs: 30_000,
      firstAnswersWaitMs: 800,
      firstCodeHoldMs: 250,
      mutationRateLimit: { max: 300, windowMs: 60_000 },
      exportRateLimit: { max: 10, windowMs: 60_000 },
      logLevel: 'info',
      trustProxy: false,
      localMailbox: true,
      analyticsUrl: undefined,
      analyticsConsentRequired: false,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://console.example.com/',
      BACKOFFICE_URL: 'https://api.example.com',
      ORY_SDK_URL: 'https://auth.example.com/',
      PROJECT_API_URL: 'https://api.example.com/projects/{slug}/',
      DATA_DIR: '/var/lib/console',
      DATABASE_URL: 'postgres://u:p@db:5432/console',
      LOCALSTACK_PORT: '0',
      UPSTREAM_TIMEOUT_MS: '1500',
      REQUEST_TIMEOUT_MS: '2500',
      FIRST_ANSWERS_WAIT_MS: '5000',
      FIRST_CODE_HOLD_MS: '400',
      MUTATION_RATE_LIMIT: '20',
      EXPORT_RATE_LIMIT: '4',
      MUTATION_RATE_WINDOW_MS: '10000',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'true',
      LOCAL_MAILBOX: 'false',
      LOCAL_SMTP_PORT: '2525',
      LOCAL_DNS_PORT: '5353',
      DNS_SERVERS: '1.1.1.1, 127.0.0.1:5354',
      ANALYTICS_URL: 'https://analytics.example.com',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://console.example.com',
      publicOrigin: 'https://console.example.com',
      backofficeUrl: 'https://api.example.com',
      orySdkUrl: 'https://auth.example.com',
      projectApiUrl: 'https://api.example.com/projects/{slug}',
      dataDir: '/var/lib/console',
      databaseUrl: 'postgres://u:p@db:5432/console',
      localstackPort: 0,
      upstreamTimeoutMs: 1500,
      requestTimeoutMs: 2500,
      firstAnswersWaitMs: 5000,
      firstCodeHoldMs: 400,
      mutationRateLimit: { max: 20, windowMs: 10_000 },
      exportRateLimit: { max: 4, windowMs: 10_000 },
      logLevel: 'debug',
      trustProxy: true,
      localMailbox: false,
      localSmtpPort: 2525,
      localDnsPort: 5353,
      dnsServers: ['1.1.1.1', '127.0.0.1:5354'],
      analyticsUrl: 'https://analytics.example.com',
      analyticsConsentRequired: true,
    });
  });

  it('asks for analytics consent off the local stack always, and on it when ANALYTICS_REQUIRE_CONSENT says so', () => {
    expect(loadConfig({}).analyticsConsentRequired).toBe(false);
    expect(loadConfig({ ANALYTICS_REQUIRE_CONSENT: 'true' }).analyticsConsentRequired).toBe(true);
    expect(loadConfig({ BACKOFFICE_URL: 'https://api.example.com', ORY_SDK_URL: 'https://auth.example.com' }).analyticsConsentRequired).toBe(true);
    expect(loadConfig({ BACKOFFICE_URL: 'https://api.example.com', ORY_SDK_URL: 'https://auth.example.com', ANALYTICS_REQUIRE_CONSENT: 'false' }).analyticsConsentRequired).toBe(true);
    expect(() => loadConfig({ ANALYTICS_URL: 'ftp://x' })).toThrow(/ANALYTICS_URL/);
  });

  it('derives the default PUBLIC_URL from PORT, so the console opened at its own port accepts mutations', () => {
    expect(loadConfig({ PORT: '3901' })).toMatchObject({ port: 3901, publicUrl: 'http://localhost:3901', publicOrigin: 'http://localhost:3901' });
    expect(loadConfig({ PORT: '3901', PUBLIC_URL: 'https://console.example.com' }).publicOrigin).toBe('https://console.example.com');
  });

  it('asks for PUBLIC_URL when PORT is 0, since a random port has no known origin', () => {
    expect(() => loadConfig({ PORT: '0' })).toThrow(/PUBLIC_URL="": set it when PORT is 0/);
  });

  it('turns tracing on with an OTLP endpoint, and explains a bad one', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({ tracesUrl: 'http://collector:4318/v1/traces', serviceName: 'console' });
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/in', OTEL_SERVICE_NAME: 'console-eu' }).tracing,
    ).toEqual({ tracesUrl: 'https://traces.example.com/in', serviceName: 'console-eu' });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318": expected an absolute http\(s\) URL/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SERVICE_NAME: 'a b' })).toThrow(/OTEL_SERVICE_NAME/);
  });

  it('reads the courier claim timeout in milliseconds', () => {
    expect(loadConfig({}).courierClaimTimeoutMs).toBeUndefined();
    expect(loadConfig({ COURIER_CLAIM_TIMEOUT_MS: '90000' }).courierClaimTimeoutMs).toBe(90_000);
    expect(() => loadConfig({ COURIER_CLAIM_TIMEOUT_MS: 'soon' })).toThrow(/COURIER_CLAIM_TIMEOUT_MS="soon"/);
  });

  it('listens on localhost unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('localhost');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('defaults PROJECT_API_URL to the cloud when upstreams are configured, and leaves it to the local stack otherwise', () => {
    const remote = { BACKOFFICE_URL: 'https://api.console.ory.sh', ORY_SDK_URL: 'https://project.console.ory.sh' };
    expect(loadConfig(remote).projectApiUrl).toBe('https://{slug}.projects.oryapis.com');
    expect(loadConfig({ ...remote, PROJECT_API_URL: 'https://{slug}.eu.example.com' }).projectApiUrl).toBe('https://{slug}.eu.example.com');
    expect(loadConfig({}).projectApiUrl).toBeUndefined();
    expect(loadConfig({ PROJECT_API_URL: 'http://127.0.0.1:9000/p/{slug}' }).projectApiUrl).toBe('http://127.0.0.1:9000/p/{slug}');
    expect(localProjectApiUrl('http://127.0.0.1:4455')).toBe('http://127.0.0.1:4455/project-api/{slug}');
  });

  it.each(['https://{slug}.projects.oryapis.com', 'http://localhost:4455/project-api/{slug}', 'https://api.example.com/{slug}/v1', 'https://{slug}-api.example.com:8443'])(
    'accepts PROJECT_API_URL=%s',
    (value) => {
      expect(loadConfig({ PROJECT_API_URL: value }).projectApiUrl).toBe(value);
    },
  );

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', BACKOFFICE_URL: '' })).toMatchObject({ port: 3000, backofficeUrl: undefined });
  });

  it.each([
    ['PORT', 'abc', 'expected a port number'],
    ['PORT', '70000', 'between 0 and 65535'],
    ['PORT', '3.5', 'whole port number'],
    ['HOST', '   ', 'host name or IP address'],
    ['HOST', 'http://0.0.0.0', 'host name or IP address'],
    ['HOST', '0.0.0.0:3000', 'host name or IP address'],
    ['HOST', 'my host', 'host name or IP address'],
    ['PUBLIC_URL', 'localhost:3000', 'absolute http(s) URL'],
    ['PUBLIC_URL', 'javascript:alert(1)', 'absolute http(s) URL'],
    ['BACKOFFICE_URL', 'ftp://example.com', 'absolute http(s) URL'],
    ['ORY_SDK_URL', 'not a url', 'absolute http(s) URL'],
    ['PROJECT_API_URL', 'https://projects.example.com', 'with {slug} in its host or path'],
    ['PROJECT_API_URL', 'ftp://{slug}.example.com', 'absolute http(s) URL'],
    ['PROJECT_API_URL', '{slug}.example.com', 'absolute http(s) URL'],
    ['PROJECT_API_URL', 'https://example.com/api?project={slug}', 'with {slug} in its host or path'],
    ['PROJECT_API_URL', 'https://example.com/api#{slug}', 'with {slug} in its host or path'],
    ['PROJECT_API_URL', 'https://{slug}@example.com', 'with {slug} in its host or path'],
    ['DATA_DIR', '  ', 'directory path'],
    ['DATABASE_URL', 'mysql://x', 'PostgreSQL URL'],
    ['LOCALSTACK_PORT', '-1', 'between 0 and 65535'],
    ['UPSTREAM_TIMEOUT_MS', '0', 'positive number of milliseconds'],
    ['UPSTREAM_TIMEOUT_MS', 'soon', 'number of milliseconds'],
    ['REQUEST_TIMEOUT_MS', '0', 'positive number of milliseconds'],
    ['REQUEST_TIMEOUT_MS', '700000', 'at most 600000'],
    ['FIRST_ANSWERS_WAIT_MS', 'soon', 'expected a number of milliseconds'],
    ['MUTATION_RATE_LIMIT', '0', 'at least 1 call'],
    ['MUTATION_RATE_LIMIT', 'many', 'number of calls'],
    ['EXPORT_RATE_LIMIT', '0', 'at least 1 export'],
    ['MUTATION_RATE_WINDOW_MS', '-5', 'positive number of milliseconds'],
    ['LOG_LEVEL', 'loud', 'expected one of fatal'],
    ['TRUST_PROXY', 'maybe', 'expected true or false'],
    ['LOCAL_MAILBOX', 'sometimes', 'expected true or false'],
    ['LOCAL_SMTP_PORT', '70000', 'between 0 and 65535'],
  ])('rejects %s=%s naming the variable and what it expects', (name, value, expected) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(`${name}=${JSON.stringify(value)}`);
    expect(message).toContain(expected);
  });

  it.each(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost', 'console-1.internal'])('accepts HOST=%s', (host) => {
    expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it('refuses an embedded local stack on the console’s own port, naming LOCALSTACK_PORT', () => {
    expect(() => loadConfig({ PORT: '4455' })).toThrow(/LOCALSTACK_PORT="": must differ from PORT \(4455\)/);
    expect(() => loadConfig({ PORT: '8080', LOCALSTACK_PORT: '8080' })).toThrow(/LOCALSTACK_PORT="8080"/);
    expect(loadConfig({ PORT: '0', LOCALSTACK_PORT: '0', PUBLIC_URL: 'http://localhost:3000' }).port).toBe(0);
    expect(loadConfig({ PORT: '4455', BACKOFFICE_URL: 'http://b', ORY_SDK_URL: 'http://o' }).port).toBe(4455);
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT=.*\n.*LOG_LEVEL=/s);
  });
});
