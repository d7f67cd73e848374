import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../test-support/control-plane';
import { identities, identityCredentials } from './schema';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, uniqueEmail, type TestProject } from '../test-support/admin-api';

let stack: LocalStack;
let project: TestProject;
let id: string;

beforeAll(async () => {
  stack = await startTestStack();
  project = await projectWithKey(stack, await newUser(stack, 'Owner'), 'Bad input');
  id = (await call(project.base, 'POST', '/admin/identities', { key: project.key, body: { schema_id: 'default', traits: { email: uniqueEmail('x') } } })).body.id;
});

afterAll(async () => {
  await stack?.close();
});

const email = () => uniqueEmail('bad');
const valid = () => ({ schema_id: 'default', traits: { email: email() } });

/** [method, path (relative to the project's base), body, a word the reason must contain] */
const cases = (): [string, string, unknown, string][] => [
  ['POST', '/admin/identities', '{"traits":', 'JSON'],
  ['POST', '/admin/identities', [], 'expected object'],
  ['POST', '/admin/identities', { schema_id: 'default' }, 'traits'],
  ['POST', '/admin/identities', { traits: { email: 'not-an-email' } }, 'traits.email'],
  ['POST', '/admin/identities', { traits: {} }, 'traits.email'],
  ['POST', '/admin/identities', { traits: { email: email(), nickname: 'x' } }, 'traits.nickname'],
  ['POST', '/admin/identities', { traits: { email: email(), name: 'n'.repeat(300) } }, 'traits.name'],
  ['POST', '/admin/identities', { traits: { email: `${'a'.repeat(320)}@example.com` } }, 'traits.email'],
  ['POST', '/admin/identities', { ...valid(), schema_id: 'customer' }, 'schema_id'],
  ['POST', '/admin/identities', { ...valid(), state: 'deleted' }, 'state'],
  ['POST', '/admin/identities', { ...valid(), favourite_colour: 'red' }, 'favourite_colour'],
  ['POST', '/admin/identities', { ...valid(), external_id: 'ext-1' }, 'external_id'],
  ['POST', '/admin/identities', { ...valid(), organization_id: '00000000-0000-4000-8000-000000000001' }, 'organization_id'],
  ['POST', '/admin/identities', { ...valid(), organization_id: 'acme' }, 'organization_id'],
  ['PATCH', '/admin/identities/ID', [{ op: 'replace', path: '/organization_id', value: 'acme' }], 'organization_id'],
  ['GET', '/admin/identities?organization_id=acme', undefined, 'organization_id'],
  ['POST', '/admin/identities', { ...valid(), verifiable_addresses: [{ value: 'a@b.co', verified: true, via: 'email', status: 'completed' }] }, 'verifiable_addresses'],
  ['POST', '/admin/identities', { ...valid(), metadata_public: 5 }, 'metadata_public'],
  ['POST', '/admin/identities', { ...valid(), credentials: { oidc: { config: {} } } }, 'oidc'],
  ['POST', '/admin/identities', { ...valid(), credentials: { password: {} } }, 'credentials.password'],
  ['POST', '/admin/identities', { ...valid(), credentials: { password: { config: { hashed_password: '$2a$10$abcdefghijk' } } } }, 'could not be parsed'],
  ['POST', '/admin/identities', { ...valid(), credentials: { password: { config: { password: 'p'.repeat(5000) } } } }, 'password'],
  ['POST', '/admin/identities', { ...valid(), traits: { email: `nul\u0000@example.com` } }, 'traits'],
  ['PUT', '/admin/identities/ID', { traits: { email: email() }, schema_id: 'default' }, 'state'],
  ['PUT', '/admin/identities/ID', { ...valid(), state: 'active', traits: { email: 'nope' } }, 'traits.email'],
  ['PATCH', '/admin/identities/ID', { op: 'replace' }, 'expected array'],
  ['PATCH', '/admin/identities/ID', [{ op: 'bogus', path: '/state' }], 'op'],
  ['PATCH', '/admin/identities/ID', [{ op: 'replace', path: '/state', value: 'gone' }], 'state'],
  ['PATCH', '/admin/identities/ID', [{ op: 'replace', path: '/schema_id', value: 'other' }], 'schema_id'],
  ['PATCH', '/admin/identities/ID', [{ op: 'replace', path: '/traits', value: 'flat' }], 'traits'],
  ['PATCH', '/admin/identities/ID', Array.from({ length: 101 }, () => ({ op: 'test', path: '/state', value: 'active' })), '100'],
  ['PATCH', '/admin/identities/ID', [{ op: 'replace', path: '/verifiable_addresses/0/verified', value: 'yes' }], 'verified'],
  ['GET', '/admin/identities?page_size=ten', undefined, 'ten'],
  ['GET', '/admin/identities?include_credential=secrets', undefined, 'include_credential'],
  ['GET', '/admin/identities?page_token=garbage', undefined, 'page_token'],
  ['GET', '/admin/identities?ids=nope', undefined, 'ids'],
  ['GET', '/admin/sessions?active=maybe', undefined, 'active'],
  ['GET', '/admin/sessions?expand=everything', undefined, 'expand'],
  ['GET', '/admin/sessions?page_size=1001', undefined, 'page_size'],
  ['GET', '/admin/sessions?page_token=e30', undefined, 'page_token'],
  ['GET', '/admin/sessions/123', undefined, '"id"'],
  ['DELETE', '/admin/sessions/123', undefined, '"id"'],
  ['PATCH', '/admin/sessions/123/extend', undefined, '"id"'],
  ['GET', '/admin/courier/messages?status=lost', undefined, 'status'],
  ['GET', '/admin/courier/messages?page_size=ten', undefined, 'page_size'],
  ['GET', '/admin/courier/messages/not-a-uuid', undefined, '"id"'],
];

describe('bad input to the admin API', () => {
  it('answers 400 naming what to fix, never a 500, and writes nothing', async () => {
    const tenantCounts = async () => {
      const [i] = await stack.db.orm.select({ n: count() }).from(identities).where(eq(identities.nid, project.id));
      const [c] = await stack.db.orm.select({ n: count() }).from(identityCredentials).where(eq(identityCredentials.nid, project.id));
      return [i?.n, c?.n];
    };
    const before = await tenantCounts();
    const original = (await call(project.base, 'GET', `/admin/identities/${id}`, { key: project.key })).body;
    for (const [method, rawPath, body, word] of cases()) {
      const path = rawPath.replace('/ID', `/${id}`);
      const answer = await call(project.base, method, path, { key: project.key, body });
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBe(400);
      expect(answer.body.error.code).toBe(400);
      expect(answer.body.error.reason, `${method} ${path}`).toContain(word);
    }
    expect(await tenantCounts()).toEqual(before);
    expect((await call(project.base, 'GET', `/admin/identities/${id}`, { key: project.key })).body).toEqual(original);
  });
});
