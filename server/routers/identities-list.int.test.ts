import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { startRecordingProxy, type RecordingProxy } from '../test-support/recording-proxy';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let kratosLike: RecordingProxy;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let viaKratosLike: Caller;
let projectId: string;
const inactive: string[] = [];
let newest: string[] = [];

/** Query parameters the local stack reads and Kratos does not (it ignores unknown ones). */
const CONSOLE_ONLY = ['state', 'schema_id', 'order'];

beforeAll(async () => {
  stack = await startTestStack();
  // The same data plane behind a proxy that drops what Kratos would ignore.
  kratosLike = await startRecordingProxy(stack.url, {
    rewrite: (req) => {
      const url = new URL(req.path, 'http://upstream');
      for (const name of CONSOLE_ONLY) url.searchParams.delete(name);
      return `${url.pathname}${url.search}`;
    },
  });
  const user = await registerUser(stack.url, { name: 'Lister' });
  const deps: AppDeps = testDeps(stack.url);
  owner = callerFor(deps, user.cookie);
  viaKratosLike = callerFor(testDeps(stack.url, { projectApiUrl: `${kratosLike.url}/project-api/{slug}` }), user.cookie);
  projectId = (await owner.projects.create({ name: 'Many people', environment: 'dev' })).id;
  const rows = Array.from({ length: 100 }, (_, i) => ({
    schemaId: 'default',
    traits: { email: `person-${String(i).padStart(3, '0')}@list.test` },
    ...(i % 40 === 7 ? { state: 'inactive' as const } : {}),
  }));
  const imported = await owner.identities.import({ projectId, identities: rows });
  expect(imported.imported).toBe(100);
  imported.results.forEach((r, i) => {
    if (rows[i]!.state === 'inactive') inactive.push(r.identityId!);
  });
  newest = imported.results.map((r) => r.identityId!).reverse();
});

afterAll(async () => {
  await kratosLike?.close();
  await stack?.close();
});

describe('the identity list of the console', () => {
  it('lists newest first, a page at a time, and tells the total', async () => {
    const seen: { id: string; at: number }[] = [];
    let token: string | undefined;
    do {
      const page = await owner.identities.list({ projectId, ...(token ? { pageToken: token } : {}) });
      expect(page.total).toBe(100);
      expect(page.identities.length).toBeLessThanOrEqual(25);
      seen.push(...page.identities.map((i) => ({ id: i.id, at: Date.parse(i.created_at!) })));
      token = page.nextPageToken ?? undefined;
    } while (token);
    expect(new Set(seen.map((s) => s.id))).toEqual(new Set(newest));
    // Newest first; identities created in the same millisecond by id, descending.
    for (let i = 1; i < seen.length; i += 1) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      expect(a.at > b.at || (a.at === b.at && a.id > b.id)).toBe(true);
    }
    expect(seen[0]!.at).toBe(Math.max(...seen.map((s) => s.at)));
  });

  it('filters by state before paging, also against an identity provider that ignores the filter', async () => {
    for (const caller of [owner, viaKratosLike]) {
      const page = await caller.identities.list({ projectId, state: 'inactive' });
      expect(page.identities.map((i) => i.id).sort()).toEqual([...inactive].sort());
      expect(page.identities.every((i) => i.state === 'inactive')).toBe(true);
      const active = await caller.identities.list({ projectId, state: 'active' });
      expect(active.identities).toHaveLength(25);
      expect(active.identities.every((i) => i.state === 'active')).toBe(true);
    }
  });

  it('finds an identity by a part of its id', async () => {
    const id = newest[42]!;
    const found = await owner.identities.list({ projectId, search: id.slice(9, 23) });
    expect(found.identities.map((i) => i.id)).toEqual([id]);
  });

  it('tells an import’s dry run which addresses belong to identities already', async () => {
    const answer = await owner.identities.existingAddresses({
      projectId,
      addresses: ['Person-007@list.test', 'person-099@list.test', 'nobody@list.test', 'person-0@list.test'],
    });
    expect(answer.existing.sort()).toEqual(['person-007@list.test', 'person-099@list.test']);
  });
});
