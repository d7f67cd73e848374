import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cnameTarget, customDomainState } from '../../shared/domain/custom-domain';
import type { LocalStack } from '../index';
import { setPlan } from '../billing/quota';
import { uniqueEmail } from '../test-support/admin-api';
import { createProject, expectOryError, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';

/*
 * Custom domains over HTTP on a real stack: their states follow the answers of the stack's local DNS server
 * (records set through /local/dns), a host name belongs to one project, the plan counts them, and the data
 * plane answers on an active one.
 */

let stack: LocalStack;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  [owner, stranger] = await Promise.all([newUser(stack, 'Domains'), newUser(stack, 'Stranger')]);
});
afterAll(async () => {
  await stack?.close();
});

const dns = (method: 'PUT' | 'DELETE', name: string, cname?: string) =>
  rawCall(stack.url, null, method, method === 'PUT' ? '/local/dns' : `/local/dns/${name}`, method === 'PUT' ? { name, cname } : undefined);

let n = 0;
/** A project on Production (custom domains start there) and a fresh host name for it. */
async function productionProject(user: TestUser = owner) {
  n += 1;
  const project = await createProject(user, `Domains ${n}`);
  await setPlan(stack.db, { kind: 'project', project: { id: project.id, workspace_id: null } }, 'Production@0');
  return project;
}

const stateOf = async (user: TestUser, projectId: string, hostname: string) => {
  const list = await user.call('GET', `/projects/${projectId}/cname`);
  expect(list.status).toBe(200);
  const domain = (list.body as { hostname: string }[]).find((d) => d.hostname === hostname) as Record<string, string>;
  return { state: customDomainState(domain), domain };
};

interface HostAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => any;
}

/** A request to the stack as if sent to `host` (the Host header a browser sends to a custom domain). */
function viaHost(host: string, path: string, options: { headers?: Record<string, string>; method?: string; body?: unknown } = {}) {
  const { port } = new URL(stack.url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = { host, accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers };
  return new Promise<HostAnswer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('custom domain states from DNS answers', () => {
  it('go pending → inactive → active → not-found → active as the CNAME record changes', async () => {
    const project = await productionProject();
    const hostname = `auth${n}.example.test`;
    const added = await owner.call('POST', `/projects/${project.id}/cname`, { hostname: `Auth${n}.Example.TEST.` });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ hostname, verification_status: 'pending', ssl_status: 'initializing' });
    expect(customDomainState(added.body)).toBe('pending');

    // No record yet: still pending, and the reason says what to add.
    let seen = await stateOf(owner, project.id, hostname);
    expect(seen.state).toBe('pending');
    expect(seen.domain.verification_errors).toEqual([expect.stringContaining(cnameTarget(project.slug))]);

    // A record pointing elsewhere: inactive.
    expect((await dns('PUT', hostname, 'elsewhere.example.net')).status).toBe(204);
    seen = await stateOf(owner, project.id, hostname);
    expect(seen.state).toBe('inactive');
    expect(seen.domain.verification_errors).toEqual([expect.stringContaining('elsewhere.example.net')]);

    // The right record: active.
    await dns('PUT', hostname, cnameTarget(project.slug));
    seen = await stateOf(owner, project.id, hostname);
    expect(seen.state).toBe('active');
    expect(seen.domain).toMatchObject({ ssl_status: 'active', verification_status: 'active', verification_errors: [] });

    // The record removed after it was verified: not found.
    expect((await dns('DELETE', hostname)).status).toBe(204);
    seen = await stateOf(owner, project.id, hostname);
    expect(seen.state).toBe('not-found');
    expect(seen.domain.verification_status).toBe('deleted');

    // Back again: active.
    await dns('PUT', hostname, cnameTarget(project.slug));
    expect((await stateOf(owner, project.id, hostname)).state).toBe('active');
  });
});

describe('one project per host name', () => {
  it('answers 409 to a second project, 400 to the same one, and frees the name once removed', async () => {
    const [first, second] = [await productionProject(), await productionProject()];
    const hostname = `shared${n}.example.test`;
    const added = await owner.call('POST', `/projects/${first.id}/cname`, { hostname });
    expect(added.status).toBe(201);
    expectOryError(await owner.call('POST', `/projects/${second.id}/cname`, { hostname: hostname.toUpperCase() }), 409, /in use in another project/);
    expectOryError(await owner.call('POST', `/projects/${first.id}/cname`, { hostname }), 400, /already a custom domain of this project/);
    // Both forms of the path reach the domain.
    expect((await owner.call('DELETE', `/projects/${first.id}/cname/${added.body.id}`)).status).toBe(204);
    expect((await owner.call('POST', `/projects/${second.id}/cname`, { hostname })).status).toBe(201);
  });

  it('keeps settings, refuses a bad cookie domain or a new host name, and gives a stranger nothing', async () => {
    const project = await productionProject();
    const hostname = `login${n}.example.test`;
    const { body } = await owner.call('POST', `/projects/${project.id}/cname`, { hostname });
    const updated = await owner.call('PUT', `/cname/${body.id}`, { cookie_domain: 'example.test', cors_enabled: true, cors_allowed_origins: ['https://app.example.test'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ hostname, cookie_domain: 'example.test', cors_enabled: true, cors_allowed_origins: ['https://app.example.test'] });
    expectOryError(await owner.call('PUT', `/cname/${body.id}`, { cookie_domain: 'other.test' }), 400, /not login\d+\.example\.test or a parent/);
    expectOryError(await owner.call('PUT', `/cname/${body.id}`, { hostname: 'renamed.example.test' }), 400, /cannot change/);
    expectOryError(await owner.call('POST', `/projects/${project.id}/cname`, { hostname: 'no-dot' }), 400);

    expect((await stranger.call('GET', `/projects/${project.id}/cname`)).status).toBe(403);
    expect((await stranger.call('PUT', `/cname/${body.id}`, { cors_enabled: false })).status).toBe(403);
    expect((await stranger.call('DELETE', `/cname/${body.id}`)).status).toBe(403);
    const strangers = await productionProject(stranger);
    expect((await stranger.call('DELETE', `/projects/${strangers.id}/cname/${body.id}`)).status).toBe(404);
    expect((await owner.call('GET', `/cname/${body.id}`)).status).toBe(404);
    expect((await stateOf(owner, project.id, hostname)).domain).toMatchObject({ cookie_domain: 'example.test', cors_enabled: true });
  });
});

describe('the custom_domains quota', () => {
  it('refuses Develop, allows Production four and Growth seven plus one per project it pays for', async () => {
    const develop = await createProject(owner, 'On Develop');
    const refused = await owner.call('POST', `/projects/${develop.id}/cname`, { hostname: 'develop.example.test' });
    expectOryError(refused, 403, /does not include custom domains/);
    expect(refused.body.error.id).toBe('feature_not_available');

    const production = await productionProject();
    for (let i = 0; i < 4; i++) expect((await owner.call('POST', `/projects/${production.id}/cname`, { hostname: `p${i}.quota${n}.example.test` })).status).toBe(201);
    const full = await owner.call('POST', `/projects/${production.id}/cname`, { hostname: `p4.quota${n}.example.test` });
    expectOryError(full, 403, /includes 4 custom domains/);
    expect(full.body.error.id).toBe('quota_exceeded');

    const workspace = (await owner.call('POST', '/workspaces', { name: 'Growth domains' })).body as { id: string };
    await setPlan(stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Growth@0');
    const a = await createProject(owner, 'Growth A', { workspace_id: workspace.id });
    const b = await createProject(owner, 'Growth B', { workspace_id: workspace.id });
    // 7 + 2 projects = 9 across the workspace.
    for (let i = 0; i < 9; i++) {
      const project = i % 2 === 0 ? a : b;
      expect((await owner.call('POST', `/projects/${project.id}/cname`, { hostname: `g${i}.growth.example.test` })).status).toBe(201);
    }
    expectOryError(await owner.call('POST', `/projects/${b.id}/cname`, { hostname: 'g9.growth.example.test' }), 403, /includes 9 custom domains/);
    const quota = await owner.call('GET', `/quota/project/${a.id}/custom_domains`);
    expect(quota.body).toMatchObject({ included: 9, used: 9, can_use_more: false });
  });
});

describe('the data plane on a custom domain', () => {
  it('answers on an active domain only: flows, sessions and hosted pages, with its base, cookie domain and CORS origins', async () => {
    const project = await productionProject();
    const hostname = `id${n}.example.test`;
    const { body } = await owner.call('POST', `/projects/${project.id}/cname`, {
      hostname,
      cookie_domain: 'example.test',
      cors_enabled: true,
      cors_allowed_origins: ['https://*.shop.example.test'],
    });
    // Pending: the host is nobody's yet (the console's own identity provider answers at the root, no hosted pages).
    const actionOn = async (host: string) => (await viaHost(host, '/self-service/registration/browser')).json().ui.action as string;
    expect(await actionOn(hostname)).not.toContain(hostname);
    expect((await viaHost(hostname, '/ui/login', { headers: { accept: 'text/html' } })).status).toBe(404);

    // The CNAME in the local DNS server moves the domain to active; from then on the host is the project's.
    expect((await dns('PUT', hostname, cnameTarget(project.slug))).status).toBe(204);
    expect((await stateOf(owner, project.id, hostname)).state).toBe('active');
    const flow = await viaHost(`${hostname}:8080`, '/self-service/registration/browser', { headers: { origin: 'https://www.shop.example.test' } });
    expect(flow.status).toBe(200);
    expect(flow.json().ui.action).toMatch(new RegExp(`^http://${hostname}:8080/self-service/registration\\?flow=`));
    expect(String(flow.headers['set-cookie'])).toMatch(/Domain=example\.test/);
    expect(flow.headers['access-control-allow-origin']).toBe('https://www.shop.example.test');
    expect(flow.headers['access-control-allow-credentials']).toBe('true');
    const preflight = await viaHost(hostname, '/sessions/whoami', { method: 'OPTIONS', headers: { origin: 'https://www.shop.example.test', 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect((await viaHost(hostname, '/sessions/whoami', { headers: { origin: 'https://evil.example.test' } })).headers['access-control-allow-origin']).toBeUndefined();

    // An end user signs up on the domain; their session is the project's, which the console's tenant does not know.
    const api = (await viaHost(hostname, '/self-service/registration/api')).json() as { id: string };
    const email = uniqueEmail('on-domain');
    const registered = await viaHost(hostname, `/self-service/registration?flow=${api.id}`, {
      method: 'POST',
      body: { method: 'password', password: 'a-long-and-unusual-passphrase-42', traits: { email } },
    });
    expect(registered.status).toBe(200);
    const token = { 'x-session-token': registered.json().session_token as string };
    const whoami = await viaHost(hostname, '/sessions/whoami', { headers: token });
    expect(whoami.status).toBe(200);
    expect(whoami.json().identity.traits.email).toBe(email);
    expect((await viaHost('127.0.0.1', '/sessions/whoami', { headers: token })).status).toBe(401);

    // The hosted pages answer there too, their forms posting to the domain.
    const page = await viaHost(hostname, '/ui/login', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(303);
    const login = await viaHost(hostname, String(page.headers.location).replace(`http://${hostname}`, ''), { headers: { accept: 'text/html' } });
    expect(login.status).toBe(303);
    const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const rendered = await viaHost(hostname, String(login.headers.location).replace(`http://${hostname}`, ''), { headers: { accept: 'text/html', cookie: cookies } });
    expect(rendered.status).toBe(200);
    expect(rendered.headers['content-type']).toMatch(/text\/html/);
    expect(rendered.body).toContain(`action="http://${hostname}/self-service/login?flow=`);

    // Only the project's API is there: the control plane is not, and an unknown name is nobody's.
    expect((await viaHost(hostname, '/projects')).status).toBe(404);
    expect(await actionOn(`other${n}.example.test`)).not.toContain(`other${n}.example.test`);

    // Removed, the host answers nothing of the project's any more.
    expect((await owner.call('DELETE', `/cname/${body.id}`)).status).toBe(204);
    expect(await actionOn(hostname)).not.toContain(hostname);
    expect((await viaHost(hostname, '/sessions/whoami', { headers: token })).status).toBe(401);
  });
});
