import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../../server/test-support/users';
import type { LocalStack } from '../index';
import { createProject, expectOryError, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';

let stack: LocalStack;
let alice: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  alice = await newUser(stack, 'Alice');
});
afterAll(async () => {
  await stack?.close();
});

const projectNames = async () => ((await alice.call('GET', '/projects')).body as { name: string }[]).map((p) => p.name).sort();
const workspaceNames = async () => ((await alice.call('GET', '/workspaces')).body.workspaces as { name: string }[]).map((w) => w.name).sort();

describe('text PostgreSQL cannot store', () => {
  it('answers 400 naming the field, never 500, and writes nothing', async () => {
    const project = await createProject(alice, 'Kept');
    const projectsBefore = await projectNames();
    const workspacesBefore = await workspaceNames();
    const attempts: [string, string, unknown][] = [
      ['POST', '/projects', { name: 'a\u0000b', environment: 'dev' }],
      ['POST', '/normalized/projects', { name: 'ok', environment: 'dev', kratos_note: 'x\u0000' }],
      ['POST', '/workspaces', { name: 'a\u0000b' }],
      ['POST', '/workspaces', { name: 'lone \ud800 surrogate' }],
      ['PUT', `/projects/${project.id}/environment`, { environment: 'dev\u0000' }],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await alice.call(method, path, body);
      expectOryError(answer, 400, /must not contain the NUL character|must be valid Unicode text/);
    }
    const query = await alice.call('GET', '/workspaces?page_token=%00');
    expectOryError(query, 400, /^query\.page_token: must not contain the NUL character$/);
    expect(await projectNames()).toEqual(projectsBefore);
    expect(await workspaceNames()).toEqual(workspacesBefore);
  });

  it('refuses NUL in identity flows with a 400 too', async () => {
    const created = await fetch(`${stack.url}/self-service/registration/browser`, { headers: { accept: 'application/json' } });
    const jar = new CookieJar();
    jar.store(created.headers.getSetCookie());
    const flow = (await created.json()) as { id: string; ui: { nodes: { attributes: { name?: string; value?: unknown } }[] } };
    const csrf = flow.ui.nodes.find((n) => n.attributes.name === 'csrf_token')?.attributes.value;
    const answer = await rawCall(stack.url, jar.header(), 'POST', `/self-service/registration?flow=${flow.id}`, {
      method: 'password',
      csrf_token: csrf,
      password: 'a-long-unrelated-passphrase',
      traits: { email: 'nul@example.com', name: 'x\u0000' },
    });
    expectOryError(answer, 400, /^traits\.name: must not contain the NUL character$/);
  });
});

describe('a move with a bad body', () => {
  it('leaves the project where it was', async () => {
    const from = (await alice.call('POST', '/workspaces', { name: 'From' })).body.id as string;
    const to = (await alice.call('POST', '/workspaces', { name: 'To' })).body.id as string;
    const project = await createProject(alice, 'Mover', { workspace_id: from });
    const bodies: [unknown, number][] = [
      [{}, 400],
      [{ workspace: to }, 400],
      [{ workspace: to, project: 'not-a-uuid' }, 400],
      [{ workspace: from, project: project.id }, 400],
      [{ workspace: to, project: project.id, original_workspace_id: 42 }, 400],
      [{ workspace: to, project: project.id, environment: 'moon' }, 400],
      [{ workspace: to, project: project.id, original_workspace_id: to }, 409],
      ['[not json', 400],
    ];
    for (const [body, status] of bodies) {
      expectOryError(await alice.call('POST', `/workspaces/${to}/add/${project.id}`, body), status);
      const now = (await alice.call('GET', `/normalized/projects/${project.id}`)).body;
      expect(now).toMatchObject({ workspace_id: from, environment: 'dev' });
    }
    const inTo = (await alice.call('GET', `/workspaces/${to}/projects`)).body.projects as unknown[];
    expect(inTo).toEqual([]);
  });
});
