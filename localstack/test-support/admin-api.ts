import { randomBytes, randomUUID } from 'node:crypto';
import { Configuration, CourierApi, IdentityApi } from '@ory/client';
import { createProject, type TestUser } from './control-plane';
import type { LocalStack } from '../index';
import { courierMessages, sessions } from '../identity/schema';
import { hashToken } from '../session/token';

export { newUser, type TestUser } from './control-plane';

export interface Answer {
  status: number;
  headers: Headers;
  /** Test code inspects arbitrary JSON answers. */
  body: any;
}

/** A project of `user` with a fresh project API key. */
export interface TestProject {
  id: string;
  slug: string;
  base: string;
  key: string;
}

/** Creates a project and a key for it the way its owner does: `POST /projects/{id}/tokens` (ProjectApi.createProjectApiKey). */
export async function projectWithKey(stack: LocalStack, user: TestUser, name: string): Promise<TestProject> {
  const project = await createProject(user, name);
  const key = await user.projects.createProjectApiKey({ project: project.id, createProjectApiKeyBody: { name: 'tests' } });
  if (key.status !== 201 || !key.data.value?.startsWith('ory_pat_')) throw new Error(`no project key: ${key.status}`);
  return { id: project.id, slug: project.slug, base: `${stack.url}/project-api/${project.slug}`, key: key.data.value };
}

/** @ory/client's IdentityApi and CourierApi for a project's data plane with a bearer key. */
export function adminApis(project: Pick<TestProject, 'base'>, accessToken: string) {
  const configuration = new Configuration({ basePath: project.base, accessToken });
  return { identity: new IdentityApi(configuration), courier: new CourierApi(configuration) };
}

/** A raw call to a project's data plane; `auth` is a bearer key, a Cookie header, or nothing. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  if (opts.cookie !== undefined) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** `rel` → link target of a Link header. */
export function links(answer: Answer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (answer.headers.get('link') ?? '').split(',')) {
    const match = /<([^>]*)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match) out[match[2]!] = match[1]!;
  }
  return out;
}

export const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

/**
 * A session of an identity of the tenant `nid`, written as the identity provider writes it (the project's
 * own sign-in flows are another area's): `token` is its `ory_kratos_session` value.
 */
export async function seedSession(
  stack: LocalStack,
  nid: string,
  identityId: string,
  at: Date = new Date(),
  lifespanMs = 60 * 60_000,
): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = `ory_st_${randomBytes(32).toString('base64url')}`;
  await stack.db.orm.insert(sessions).values({
    id,
    nid,
    token_hash: hashToken(token),
    logout_token_hash: hashToken(`logout:${token}`),
    identity_id: identityId,
    aal: 'aal1',
    authentication_methods: [{ method: 'password', aal: 'aal1', completed_at: at.toISOString() }],
    devices: [{ id: randomUUID(), ip_address: '127.0.0.1', user_agent: 'tests', location: '' }],
    authenticated_at: at,
    issued_at: at,
    expires_at: new Date(at.getTime() + lifespanMs),
  });
  return { id, token };
}

/** A courier message of the tenant `nid`, as the identity provider's courier stores it. */
export async function seedMessage(stack: LocalStack, nid: string, recipient: string, at: Date = new Date()): Promise<string> {
  const id = randomUUID();
  await stack.db.orm.insert(courierMessages).values({
    id,
    nid,
    recipient,
    subject: 'Recover access to your account',
    body: 'Your code is 123456',
    template_type: 'recovery_code_valid',
    status: 'sent',
    send_count: 1,
    created_at: at,
    updated_at: at,
  });
  return id;
}
