import { randomBytes } from 'node:crypto';
import { Configuration, ProjectApi, WorkspaceApi } from '@ory/client';
import { expect } from 'vitest';
import { registerUser } from '../../server/test-support/users';
import type { LocalStack } from '../index';
import { projectMembers, workspaceMembers } from '../project/schema';

export { startTestStack } from '../../server/test-support/stack';

export interface Answer {
  status: number;
  /** Test code inspects arbitrary JSON answers. */
  body: any;
}

export interface TestUser {
  id: string;
  email: string;
  name: string;
  cookie: string;
  projects: ProjectApi;
  workspaces: WorkspaceApi;
  /** A raw call to the local stack with the user's session cookie (for paths @ory/client has no method for). */
  call(method: string, path: string, body?: unknown): Promise<Answer>;
}

export async function rawCall(
  url: string,
  cookie: string | null,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
) {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null } as Answer;
}

/** A call authenticated by an API key only (`Authorization: Bearer <key>`), no cookie. */
export const keyCall = (stack: LocalStack, key: string, method: string, path: string, body?: unknown) =>
  rawCall(stack.url, null, method, path, body, { authorization: `Bearer ${key}` });

let counter = 0;

/** Registers a real user through the identity provider's browser flow; the cookie is a real session. */
export async function newUser(stack: LocalStack, name: string): Promise<TestUser> {
  counter += 1;
  const email = `${name.toLowerCase()}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
  const { cookie, identityId } = await registerUser(stack.url, { email, name, password: 'a-Long-and-unusual-passw0rd' });
  const configuration = new Configuration({ basePath: stack.url, baseOptions: { headers: { Cookie: cookie } } });
  return {
    id: identityId,
    email,
    name,
    cookie,
    projects: new ProjectApi(configuration),
    workspaces: new WorkspaceApi(configuration),
    call: (method, path, body) => rawCall(stack.url, cookie, method, path, body),
  };
}

/** Creates a project through @ory/client (201 asserted) and returns it. */
export async function createProject(
  user: TestUser,
  name: string,
  extra: { environment?: 'prod' | 'stage' | 'dev'; workspace_id?: string } = {},
) {
  const created = await user.projects.createProject({
    createProjectBody: { name, environment: extra.environment ?? 'dev', ...extra },
  });
  expect(created.status).toBe(201);
  return created.data;
}

/** Awaits a call that must fail and returns its status and errorGeneric body. */
export async function failure(promise: Promise<unknown>): Promise<Answer> {
  try {
    await promise;
  } catch (err) {
    const response = (err as { response?: { status: number; data: unknown } }).response;
    if (response) return { status: response.status, body: response.data };
    throw err;
  }
  throw new Error('Expected the call to fail, but it succeeded');
}

/** Asserts an errorGeneric answer with the status and a non-empty reason. */
export function expectOryError(answer: Answer, status: number, reason?: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.body.error.code).toBe(status);
  expect(typeof answer.body.error.message).toBe('string');
  expect(answer.body.error.reason).toEqual(expect.any(String));
  if (reason) expect(answer.body.error.reason).toMatch(reason);
}

/** Seeds a membership directly (there is no invite API in this slice). */
export async function addWorkspaceMember(
  stack: LocalStack,
  workspaceId: string,
  identityId: string,
  role: 'owner' | 'developer',
): Promise<void> {
  await stack.db.orm.insert(workspaceMembers).values({ workspace_id: workspaceId, identity_id: identityId, role, created_at: new Date() });
}

export async function addProjectMember(
  stack: LocalStack,
  projectId: string,
  identityId: string,
  role: 'owner' | 'developer',
): Promise<void> {
  await stack.db.orm.insert(projectMembers).values({ project_id: projectId, identity_id: identityId, role, created_at: new Date() });
}
