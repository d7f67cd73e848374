import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityApi, ProjectApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequiredParameterError } from '../../shared/domain/required-param';
import { createControlPlaneSdk } from './control-plane-sdk';
import { UpstreamError } from './errors';
import { createSdkTransport } from './sdk';

const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  if (req.url?.startsWith('/redirect')) {
    res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
    return res.end();
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('[]');
});
let base: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the one SDK transport', () => {
  const transport = createSdkTransport({ upstream: 'project-api', timeoutMs: 1_000 });
  afterAll(() => transport.close());

  it('sends every call of a bound API with only the session cookie, the request id and its own query', async () => {
    seen.length = 0;
    const caller = { cookie: 'theme=dark; ory_kratos_session=s1; csrf_token_x=c', requestId: 'req-1' };
    const identity = transport.guarded(new IdentityApi(transport.configuration(base, caller)));
    await identity.listIdentities({ pageSize: 5 }, { params: { state: 'active' } });
    await identity.listIdentitySchemas();
    expect(seen.map((r) => r.url)).toEqual(['/admin/identities?page_size=5&state=active', '/schemas']);
    for (const { headers } of seen) {
      expect(headers).toMatchObject({ cookie: 'ory_kratos_session=s1', 'x-request-id': 'req-1', accept: 'application/json' });
    }
  });

  it('gives each call the request’s deadline, or one of its own', () => {
    const signal = AbortSignal.timeout(50);
    expect(transport.requestOptions({ signal }).signal).toBe(signal);
    expect(transport.requestOptions({}).signal).toBeInstanceOf(AbortSignal);
    expect(transport.requestOptions({}).headers).toEqual({ accept: 'application/json' });
  });

  it('fails a call without a required parameter with the spec text, sending nothing', async () => {
    seen.length = 0;
    const identity = transport.guarded(new IdentityApi(transport.configuration(base, {})));
    const error = await identity.getIdentity({ id: undefined as unknown as string }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequiredParameterError);
    expect((error as Error).message).toBe('Required parameter id was null or undefined when calling getIdentity');
    expect(seen).toEqual([]);
  });

  it('follows no redirect and fails it as an UpstreamError of its upstream', async () => {
    const api = transport.guarded(new ProjectApi(transport.configuration(`${base}/redirect`, {})));
    const error = await api.listProjects().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 302, upstream: 'project-api' });
  });

  it('refuses a configuration without a base path, so nothing goes to the public cloud host', () => {
    expect(() => transport.configuration('')).toThrow(/basePath is required/);
  });
});

describe('the control plane through the transport', () => {
  it('answers a call without a required parameter with the spec text, not as an unreachable upstream', async () => {
    const sdk = createControlPlaneSdk({ baseUrl: base, timeoutMs: 1_000 });
    seen.length = 0;
    const error = await sdk
      .send({}, 'getProject', undefined, (o) => sdk.projects.getProject({ projectId: undefined as unknown as string }, o))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequiredParameterError);
    expect((error as Error).message).toBe('Required parameter projectId was null or undefined when calling getProject');
    expect(seen).toEqual([]);
    sdk.close();
  });
});
