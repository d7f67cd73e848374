import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS_AND_FOLDERS, ORGANIZATIONS_AND_TEAMS } from '../../shared/permissions/templates';
import type { ExplainNode } from '../../shared/schemas/relationships';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let outsider: Caller;
let projectId: string;

const rel = (namespace: string, object: string, relation: string, subject: { id: string } | { set: { namespace: string; object: string; relation: string } }) => ({
  projectId,
  namespace,
  object,
  relation,
  subject,
});

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Rules Owner' }), registerUser(stack.url, { name: 'Rules Outsider' })]);
  owner = callerFor(deps, a.cookie);
  outsider = callerFor(deps, b.cookie);
  projectId = (await owner.projects.create({ name: 'Permissions', environment: 'dev' })).id;
});

afterAll(async () => {
  await stack?.close();
});

describe('permission rules through the BFF', () => {
  it('starts with no rules, validates a text with problems at their lines, and refuses to save it', async () => {
    expect(await owner.permissionRules.get({ projectId })).toMatchObject({ opl: '', namespaces: [], problems: [] });
    const broken = 'class User implements Namespace {}\nclass Doc implements Namespace {\n  related: { owners: Person[] }\n}\n';
    const checked = await owner.permissionRules.validate({ projectId, opl: broken });
    expect(checked).toEqual({
      valid: false,
      namespaces: [],
      problems: [{ message: 'namespace "Person" was not declared', line: 3, column: 22, endLine: 3, endColumn: 28 }],
    });
    const refused = await rejection(owner.permissionRules.set({ projectId, opl: broken }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toContain('line 3, column 22: namespace "Person" was not declared');
    expect((await owner.permissionRules.get({ projectId })).opl).toBe('');
  });

  it('saves valid rules, shows their namespaces and relations, and refuses a save based on an older revision', async () => {
    const before = await owner.permissionRules.get({ projectId });
    const saved = await owner.permissionRules.set({ projectId, opl: ORGANIZATIONS_AND_TEAMS, revisionId: before.revisionId! });
    expect(saved.opl).toBe(ORGANIZATIONS_AND_TEAMS);
    expect(saved.namespaces.find((n) => n.name === 'Organization')?.relations).toEqual([
      { name: 'admins', kind: 'relation', types: ['User'] },
      { name: 'members', kind: 'relation', types: ['User', 'Team#members'] },
      { name: 'banned', kind: 'relation', types: ['User'] },
      { name: 'view', kind: 'permission', types: [], rule: '(this.permits.members(ctx) || this.permits.manage(ctx)) && !this.permits.banned(ctx)' },
      { name: 'manage', kind: 'permission', types: [], rule: 'this.permits.admins(ctx) && !this.permits.banned(ctx)' },
    ]);
    const stale = await rejection(owner.permissionRules.set({ projectId, opl: DOCUMENTS_AND_FOLDERS, revisionId: before.revisionId! }));
    expect(stale.code).toBe('CONFLICT');
    expect((await owner.permissionRules.get({ projectId })).opl).toBe(ORGANIZATIONS_AND_TEAMS);
    const names = (await owner.relationships.namespaces({ projectId })).namespaces.map((n) => n.name);
    expect(names).toEqual(['User', 'Team', 'Organization']);
  });
});

describe('relationships through the BFF', () => {
  it('creates relationships, lists them by filter and page, and deletes one', async () => {
    await owner.relationships.create(rel('Team', 'backend', 'members', { id: 'ada' }));
    await owner.relationships.create(rel('Team', 'backend', 'members', { id: 'bob' }));
    const created = await owner.relationships.create(rel('Organization', 'acme', 'members', { set: { namespace: 'Team', object: 'backend', relation: 'members' } }));
    expect(created).toEqual({ namespace: 'Organization', object: 'acme', relation: 'members', subject_set: { namespace: 'Team', object: 'backend', relation: 'members' } });
    await owner.relationships.create(rel('Organization', 'acme', 'admins', { id: 'grace' }));

    const team = await owner.relationships.list({ projectId, namespace: 'Team' });
    expect(team.relationships.map((r) => r.subject_id)).toEqual(['ada', 'bob']);
    expect(team.nextPageToken).toBeNull();
    const bySet = await owner.relationships.list({ projectId, subjectSet: { namespace: 'Team', object: 'backend', relation: 'members' } });
    expect(bySet.relationships).toEqual([created]);

    await owner.relationships.delete(rel('Team', 'backend', 'members', { id: 'bob' }));
    expect((await owner.relationships.list({ projectId, namespace: 'Team' })).relationships.map((r) => r.subject_id)).toEqual(['ada']);

    const unknown = await rejection(owner.relationships.create(rel('Nope', 'x', 'y', { id: 'z' })));
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.message).toContain('Unknown namespace with name "Nope".');
  });

  it('deletes by query only with the count the caller confirmed', async () => {
    for (const id of ['t1', 't2', 't3']) await owner.relationships.create(rel('Team', 'temp', 'members', { id }));
    expect(await owner.relationships.count({ projectId, namespace: 'Team', object: 'temp' })).toEqual({ count: 3, capped: false });
    const stale = await rejection(owner.relationships.deleteMatching({ projectId, namespace: 'Team', object: 'temp', expectedCount: 2 }));
    expect(stale.code).toBe('CONFLICT');
    expect(stale.message).toBe('3 relationships match now, not 2: review the list and confirm again.');
    expect((await owner.relationships.count({ projectId, namespace: 'Team', object: 'temp' })).count).toBe(3);
    expect(await owner.relationships.deleteMatching({ projectId, namespace: 'Team', object: 'temp', expectedCount: 3 })).toEqual({ deleted: 3 });
    expect((await owner.relationships.count({ projectId, namespace: 'Team', object: 'temp' })).count).toBe(0);
  });
});

describe('checks of the project\u2019s rules through the BFF', () => {
  /** The path of member steps from the question to the stored tuple that decided it. */
  function decidingPath(node: ExplainNode): string[] {
    if (node.result !== 'member') return [];
    const here = `${node.kind} ${node.namespace}:${node.object}#${node.relation}${node.tuple ? ` [${JSON.stringify(node.tuple)}]` : ''}`;
    if (node.children.length === 0) return [here];
    for (const child of node.children) {
      const below = decidingPath(child);
      if (below.length > 0) return [here, ...below];
    }
    return [here];
  }

  it('answers allowed with the steps and the tuple that decided it', async () => {
    const answer = await owner.permissions.check({ projectId, namespace: 'Organization', object: 'acme', relation: 'view', subject: { id: 'ada' } });
    expect(answer.allowed).toBe(true);
    expect(answer.explanationDisagrees).toBe(false);
    const path = decidingPath(answer.explanation);
    expect(path[0]).toBe('check Organization:acme#view');
    expect(path.some((step) => step.startsWith('rule Organization:acme#view'))).toBe(true);
    expect(path.at(-1)).toBe(`direct Team:backend#members [${JSON.stringify({ namespace: 'Team', object: 'backend', relation: 'members', subject_id: 'ada' })}]`);
  });

  it('answers denied when an exclusion holds, and explains that too', async () => {
    await owner.relationships.create(rel('Organization', 'acme', 'banned', { id: 'grace' }));
    const answer = await owner.permissions.check({ projectId, namespace: 'Organization', object: 'acme', relation: 'manage', subject: { id: 'grace' } });
    expect(answer).toMatchObject({ allowed: false, explanationDisagrees: false, explanation: { kind: 'check', result: 'not_member' } });
    const rule = answer.explanation.children.find((c) => c.kind === 'rule')!;
    expect(rule.rule).toBe('Organization.manage: this.permits.admins(ctx) && !this.permits.banned(ctx)');
    const not = rule.children[0]!.children.find((c) => c.kind === 'not')!;
    expect(not.result).toBe('not_member');
  });

  it('expands a relation into its subjects', async () => {
    const tree = await owner.permissions.expand({ projectId, namespace: 'Organization', object: 'acme', relation: 'members' });
    expect(tree).toMatchObject({
      type: 'union',
      children: [{ type: 'union', tuple: { subject_set: { namespace: 'Team', object: 'backend', relation: 'members' } }, children: [{ type: 'leaf', tuple: { subject_id: 'ada' } }] }],
    });
  });

  it('expands a permit into its rule\u2019s tree, in Keto\u2019s shape', async () => {
    // manage: admins && !banned; grace is both an admin and banned.
    const tree = await owner.permissions.expand({ projectId, namespace: 'Organization', object: 'acme', relation: 'manage' });
    const tuple = (subject: object) => ({ namespace: '', object: '', relation: '', ...subject });
    expect(tree).toEqual({
      type: 'intersection',
      tuple: tuple({ subject_set: { namespace: 'Organization', object: 'acme', relation: 'manage' } }),
      children: [
        { type: 'union', tuple: tuple({ subject_set: { namespace: 'Organization', object: 'acme', relation: 'admins' } }), children: [{ type: 'leaf', tuple: tuple({ subject_id: 'grace' }) }] },
        {
          type: 'exclusion',
          tuple: tuple({}),
          children: [{ type: 'union', tuple: tuple({ subject_set: { namespace: 'Organization', object: 'acme', relation: 'banned' } }), children: [{ type: 'leaf', tuple: tuple({ subject_id: 'grace' }) }] }],
        },
      ],
    });
  });

  it('refuses a relation the rules do not declare, saying which', async () => {
    const refused = await rejection(owner.permissions.check({ projectId, namespace: 'Organization', object: 'acme', relation: 'owners', subject: { id: 'ada' } }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toContain('relation "owners" does not exist');
  });

  it('refuses a user outside the project everything', async () => {
    const attempts = [
      outsider.permissionRules.get({ projectId }),
      outsider.permissionRules.set({ projectId, opl: DOCUMENTS_AND_FOLDERS }),
      outsider.relationships.list({ projectId }),
      outsider.relationships.create(rel('Team', 'x', 'members', { id: 'eve' })),
      outsider.relationships.deleteMatching({ projectId, namespace: 'Team', expectedCount: 1 }),
      outsider.permissions.check({ projectId, namespace: 'Organization', object: 'acme', relation: 'view', subject: { id: 'ada' } }),
      outsider.permissions.expand({ projectId, namespace: 'Organization', object: 'acme', relation: 'members' }),
    ];
    for (const refusal of await Promise.all(attempts.map(rejection))) expect(['FORBIDDEN', 'NOT_FOUND']).toContain(refusal.code);
    expect((await owner.relationships.list({ projectId, namespace: 'Team', object: 'x' })).relationships).toEqual([]);
  });
});

describe("Keto's feature flags through the BFF", () => {
  const STRICT_RULES = `class User implements Namespace {}
class Group implements Namespace {
  related: { members: (User | SubjectSet<Group, "members">)[] }
}
class File implements Namespace {
  related: { editors: User[]; viewers: (User | SubjectSet<Group, "members">)[] }
  permits = {
    canEdit: (ctx: Context) => this.related.editors.includes(ctx.subject),
    canView: (ctx: Context) => this.permits.canEdit(ctx) || this.related.viewers.includes(ctx.subject),
  }
}`;
  let flagged: string;
  const tupleNodes = (node: ExplainNode): ExplainNode[] => [...(node.tuple ? [node] : []), ...node.children.flatMap(tupleNodes)];

  beforeAll(async () => {
    flagged = (await owner.projects.create({ name: 'Strict checks', environment: 'dev' })).id;
    await owner.permissionRules.set({ projectId: flagged, opl: STRICT_RULES });
    const create = (relation: string, subject: Parameters<typeof rel>[3]) => owner.relationships.create({ ...rel('File', 'doc', relation, subject), projectId: flagged });
    await create('editors', { id: 'alice' });
    // A relationship written directly under a permission: strict mode ignores it.
    await create('canEdit', { id: 'eve' });
    await create('viewers', { set: { namespace: 'Group', object: 'a', relation: 'members' } });
    await owner.relationships.create({ ...rel('Group', 'a', 'members', { id: 'bob' }), projectId: flagged });
  });

  it('explains a check in strict mode: a tuple under a permit no longer counts, and the explanation agrees', async () => {
    const check = (relation: string, subject: string) => owner.permissions.check({ projectId: flagged, namespace: 'File', object: 'doc', relation, subject: { id: subject } });
    const before = await owner.permissionRules.get({ projectId: flagged });
    expect(before.featureFlags).toEqual({ strict_mode: false, expand_rewrites: true });

    const lenient = await check('canEdit', 'eve');
    expect(lenient).toMatchObject({ allowed: true, explanationDisagrees: false });
    expect(tupleNodes(lenient.explanation).map((n) => n.tuple)).toContainEqual({ namespace: 'File', object: 'doc', relation: 'canEdit', subject_id: 'eve' });

    const strict = await owner.permissionRules.setFeatureFlags({ projectId: flagged, strict_mode: true, revisionId: before.revisionId! });
    expect(strict.featureFlags).toEqual({ strict_mode: true, expand_rewrites: true });
    expect(strict.opl).toBe(STRICT_RULES);
    expect((await owner.permissionRules.get({ projectId: flagged })).featureFlags.strict_mode).toBe(true);

    const refused = await check('canEdit', 'eve');
    expect(refused).toMatchObject({ allowed: false, explanationDisagrees: false, explanation: { kind: 'check', result: 'not_member' } });
    expect(tupleNodes(refused.explanation).some((n) => n.tuple?.subject_id === 'eve')).toBe(false);
    // What the rule derives still holds, and the explanation shows the tuple that decided it.
    const derived = await check('canView', 'alice');
    expect(derived).toMatchObject({ allowed: true, explanationDisagrees: false });
    expect(tupleNodes(derived.explanation).map((n) => n.tuple)).toContainEqual({ namespace: 'File', object: 'doc', relation: 'editors', subject_id: 'alice' });
    expect(await check('canView', 'bob')).toMatchObject({ allowed: true, explanationDisagrees: false });

    // A save based on the revision before the change is stale.
    expect((await rejection(owner.permissionRules.setFeatureFlags({ projectId: flagged, strict_mode: false, revisionId: before.revisionId! }))).code).toBe('CONFLICT');
    expect((await owner.permissionRules.setFeatureFlags({ projectId: flagged, strict_mode: false })).featureFlags.strict_mode).toBe(false);
    expect((await check('canEdit', 'eve')).allowed).toBe(true);
  });

  it('expands a permit by its rule only while expand rewrites is on', async () => {
    const expand = () => owner.permissions.expand({ projectId: flagged, namespace: 'File', object: 'doc', relation: 'canEdit' });
    const followed = await expand();
    expect(JSON.stringify(followed)).toContain('"editors"');
    const off = await owner.permissionRules.setFeatureFlags({ projectId: flagged, expand_rewrites: false });
    expect(off.featureFlags).toEqual({ strict_mode: false, expand_rewrites: false });
    const plain = await expand();
    expect(JSON.stringify(plain)).not.toContain('"editors"');
    expect(JSON.stringify(plain)).toContain('"eve"');
    await owner.permissionRules.setFeatureFlags({ projectId: flagged, expand_rewrites: true });
    expect(await expand()).toEqual(followed);
  });

  it('refuses the flags to a user outside the project, and bad input with what to fix', async () => {
    expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(outsider.permissionRules.setFeatureFlags({ projectId: flagged, strict_mode: true }))).code);
    const empty = await rejection(owner.permissionRules.setFeatureFlags({ projectId: flagged }));
    expect([empty.code, empty.message]).toEqual(['BAD_REQUEST', expect.stringContaining('Give strict_mode or expand_rewrites')]);
    expect((await owner.permissionRules.get({ projectId: flagged })).featureFlags).toEqual({ strict_mode: false, expand_rewrites: true });
  });
});
