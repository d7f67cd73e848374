import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser, signUpToProject } from '../test-support/users';
import { anyStatus, browserOf, csrfOf } from '../test-support/project-flows';

/*
 * Identifier-first login (`selfservice.flows.login.style: identifier_first`, the identifier_first switch of
 * /authentication), observed in a project's login flow: the identifier first, then the methods of that account.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Identifier First Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

type Node = { group: string; attributes: { name?: string; type?: string; value?: unknown } };
type FlowAnswer = { ui: { nodes: Node[]; messages?: { id: number }[] }; session?: { identity?: { id: string } } };
const inputs = (flow: unknown) => (flow as FlowAnswer).ui.nodes.map((n) => `${n.group}:${n.attributes.name}:${n.attributes.type}${n.attributes.name === 'method' ? `=${String(n.attributes.value)}` : ''}`);

describe('identifier-first login', () => {
  it('asks the identifier, refuses an unknown one, then offers the password of the account and signs in', async () => {
    const project = await owner.projects.create({ name: 'Identifier first', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    const email = 'first@example.com';
    const user = await signUpToProject(stack.url, project.slug, email);
    await owner.projectConfig.setAuthentication({ projectId: project.id, identifier_first: true });

    const b = browserOf(base);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    expect(inputs(flow.data)).toEqual(['default:csrf_token:hidden', 'identifier_first:identifier:text', 'identifier_first:method:submit=identifier_first']);

    const unknown = await b.api.updateLoginFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateLoginFlowBody: { method: 'identifier_first', identifier: 'nobody@example.com', csrf_token: csrfOf(flow.data) } },
      anyStatus,
    );
    expect(unknown.status).toBe(400);
    expect((unknown.data as unknown as FlowAnswer).ui.messages?.map((m) => m.id)).toEqual([4000037]);

    const identified = await b.api.updateLoginFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateLoginFlowBody: { method: 'identifier_first', identifier: email, csrf_token: csrfOf(flow.data) } },
      anyStatus,
    );
    expect(identified.status).toBe(400);
    expect(inputs(identified.data)).toEqual(['default:csrf_token:hidden', 'identifier_first:identifier:hidden', 'password:password:password', 'password:method:submit=password']);
    const hidden = (identified.data as unknown as FlowAnswer).ui.nodes.find((n) => n.attributes.name === 'identifier');
    expect(hidden?.attributes.value).toBe(email);

    // The hosted login page's password form carries the identifier the first step asked.
    const page = await (await fetch(`${base}/ui/login?flow=${flow.data.id}`, { headers: { cookie: b.cookie() } })).text();
    const passwordForm = page.match(/<form[^>]*data-group="password"[^>]*>([\s\S]*?)<\/form>/)?.[1] ?? '';
    expect(passwordForm).toMatch(/name="identifier"[^>]*value="first@example\.com"|value="first@example\.com"[^>]*name="identifier"/);

    const signedIn = await b.api.updateLoginFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateLoginFlowBody: { method: 'password', identifier: email, password: 'a-Long-and-unusual-passw0rd', csrf_token: csrfOf(flow.data) },
    });
    expect((signedIn.data as unknown as FlowAnswer).session?.identity?.id).toBe(user.identityId);

    // Back to the unified style: the identifier and the password on one form.
    await owner.projectConfig.setAuthentication({ projectId: project.id, identifier_first: false });
    const c = browserOf(base);
    const unified = c.keep(await c.api.createBrowserLoginFlow());
    expect(inputs(unified.data)).toContain('password:password:password');
    expect(inputs(unified.data)).not.toContain('identifier_first:method:submit=identifier_first');
  });
});
