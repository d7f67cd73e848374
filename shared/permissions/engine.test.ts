import { describe, expect, it } from 'vitest';
import { CheckNotCompletedError, DEFAULT_LIMITS, PermissionEngine, type TraceNode } from './engine';
import { DOCUMENTS_AND_FOLDERS, ORGANIZATIONS_AND_TEAMS } from './templates';
import { MemoryTupleStore, parseTuple } from './memory-store';
import { parseOpl } from './opl';

function engineFor(opl: string, tuples: string[], limits = DEFAULT_LIMITS): PermissionEngine {
  const { namespaces, errors } = parseOpl(opl);
  expect(errors).toEqual([]);
  return new PermissionEngine(namespaces, new MemoryTupleStore(tuples.map(parseTuple)), limits);
}

/** Keto's own rewrite scenario (internal/check/rewrites_test.go) with the answers Keto gives. */
const KETO_REWRITES_OPL = `
class User implements Namespace {}

class Doc implements Namespace {
  related: {
    owner: User[]
    parent: Doc[]
  }
  permits = {
    editor: (ctx: Context) => this.related.owner.includes(ctx.subject),
    viewer: (ctx: Context) => this.permits.editor(ctx) ||
      this.related.parent.traverse(p => p.permits.viewer(ctx))
  }
}

class Group implements Namespace {
  related: { member: User[] }
}

class Level implements Namespace {
  related: { member: User[] }
}

class Resource implements Namespace {
  related: {
    level: Level[]
    owner: Group[]
  }
  permits = {
    viewer: (ctx: Context) => this.related.owner.traverse(g => g.related.member.includes(ctx.subject)),
    isOwner: (ctx: Context) => this.related.owner.traverse(g => g.related.member.includes(ctx.subject)),
    read: (ctx: Context) => this.permits.viewer(ctx) || this.permits.isOwner(ctx),
    update: (ctx: Context) => this.permits.isOwner(ctx),
    delete: (ctx: Context) => this.permits.isOwner(ctx) && this.related.level.traverse(l => l.related.member.includes(ctx.subject)),
  }
}

class Acl implements Namespace {
  related: {
    allow: User[]
    deny: User[]
  }
  permits = {
    access: (ctx: Context) => this.related.allow.includes(ctx.subject) && !this.related.deny.includes(ctx.subject)
  }
}`;

const KETO_REWRITES_TUPLES = [
  'Doc:document#owner@plain_user',
  'Doc:document#owner@User:user#',
  'Doc:folder#owner@plain_user',
  'Doc:folder#owner@User:user#',
  'Doc:doc_in_folder#parent@Doc:folder#',
  'Doc:folder_a#owner@user',
  'Doc:folder_b#parent@Doc:folder_a#',
  'Doc:folder_c#parent@Doc:folder_b#',
  'Doc:file#parent@Doc:folder_c#',
  'Group:editors#member@mark',
  'Group:editors#member@mike',
  'Level:superadmin#member@mark',
  'Level:superadmin#member@sandy',
  'Resource:topsecret#owner@Group:editors#',
  'Resource:topsecret#level@Level:superadmin#',
  'Acl:document#allow@alice',
  'Acl:document#allow@bob',
  'Acl:document#allow@mallory',
  'Acl:document#deny@mallory',
];

describe('PermissionEngine.check', () => {
  it("gives Keto's answers to its rewrite scenario: computed sets, traversal, intersection, exclusion", async () => {
    const engine = engineFor(KETO_REWRITES_OPL, KETO_REWRITES_TUPLES);
    const cases: [string, boolean][] = [
      ['Doc:document#owner@User:user#', true],
      ['Doc:document#editor@User:user#', true],
      ['Doc:document#editor@plain_user', true],
      ['Doc:document#viewer@User:user#', true],
      ['Doc:document#editor@nobody', false],
      ['Doc:folder#viewer@User:user#', true],
      ['Doc:doc_in_folder#viewer@User:user#', true],
      ['Doc:doc_in_folder#viewer@plain_user', true],
      ['Doc:doc_in_folder#viewer@nobody', false],
      ['Doc:another_doc#viewer@user', false],
      ['Doc:file#viewer@user', true],
      ['Level:superadmin#member@mark', true],
      ['Resource:topsecret#isOwner@mark', true],
      ['Resource:topsecret#delete@mark', true],
      ['Resource:topsecret#update@mike', true],
      ['Level:superadmin#member@mike', false],
      ['Resource:topsecret#delete@mike', false],
      ['Resource:topsecret#delete@sandy', false],
      ['Acl:document#access@alice', true],
      ['Acl:document#access@bob', true],
      ['Acl:document#allow@mallory', true],
      ['Acl:document#access@mallory', false],
    ];
    for (const [query, expected] of cases) {
      expect(await engine.allowed(parseTuple(query)), query).toBe(expected);
    }
  });

  it('follows parents and group members in the documents example (Keto contrib/rewrites-example)', async () => {
    const engine = engineFor(DOCUMENTS_AND_FOLDERS, [
      'Group:developer#members@User:Patrik#',
      'Group:developer#members@User:Henning#',
      'Folder:keto/#viewers@Group:developer#members',
      'File:keto/README.md#parents@Folder:keto/#',
      'Folder:keto/src/#parents@Folder:keto/#',
      'File:keto/src/main.go#parents@Folder:keto/src/#',
      'File:private#owners@User:Henning#',
    ]);
    const cases: [string, boolean][] = [
      ['File:keto/src/main.go#view@User:Patrik#', true],
      ['File:keto/README.md#view@User:Henning#', true],
      ['File:private#view@User:Henning#', true],
      ['File:private#view@User:Patrik#', false],
      ['File:private#edit@User:Henning#', true],
      ['File:keto/src/main.go#edit@User:Patrik#', false],
      ['Folder:keto/#view@User:Patrik#', true],
      ['Folder:keto/#view@User:Someone#', false],
    ];
    for (const [query, expected] of cases) {
      expect(await engine.allowed(parseTuple(query)), query).toBe(expected);
    }
  });

  it('answers nested group membership through subject sets, within the depth limit', async () => {
    const engine = engineFor(ORGANIZATIONS_AND_TEAMS, [
      'Team:backend#members@ada',
      'Team:engineering#members@Team:backend#members',
      'Organization:acme#members@Team:engineering#members',
      'Organization:acme#admins@grace',
      'Organization:acme#admins@mallory',
      'Organization:acme#banned@mallory',
    ]);
    expect(await engine.allowed(parseTuple('Organization:acme#members@ada'))).toBe(true);
    expect(await engine.allowed(parseTuple('Organization:acme#view@ada'))).toBe(true);
    expect(await engine.allowed(parseTuple('Organization:acme#manage@ada'))).toBe(false);
    expect(await engine.allowed(parseTuple('Organization:acme#view@grace'))).toBe(true);
    expect(await engine.allowed(parseTuple('Organization:acme#manage@mallory'))).toBe(false);
    expect(await engine.allowed(parseTuple('Organization:acme#view@mallory'))).toBe(false);
    // As Keto, each hop looks one set ahead: two nested sets need depth 2; at depth 1 the answer is undecided.
    expect(await engine.allowed(parseTuple('Organization:acme#members@ada'), 2)).toBe(true);
    const shallow = await engine.check(parseTuple('Organization:acme#members@ada'), { maxDepth: 1 });
    expect(shallow).toMatchObject({ membership: 'unknown', limitation: 'max_depth_exceeded' });
    // A subject set itself is a subject.
    expect(await engine.allowed(parseTuple('Organization:acme#members@Team:backend#members'))).toBe(true);
  });

  it('answers "not allowed" for a namespace the rules do not declare, without reading tuples', async () => {
    const engine = engineFor(ORGANIZATIONS_AND_TEAMS, ['Nope:x#members@ada']);
    expect(await engine.check(parseTuple('Nope:x#members@ada'))).toEqual({ membership: 'not_member' });
  });

  it('clamps max-depth to the global limit and treats 0 as the limit', async () => {
    const chain = Array.from({ length: 8 }, (_, i) => `Team:t${i + 1}#members@Team:t${i}#members`);
    const engine = engineFor(ORGANIZATIONS_AND_TEAMS, ['Team:t0#members@ada', ...chain]);
    expect(await engine.allowed(parseTuple('Team:t5#members@ada'), 0)).toBe(true);
    expect(await engine.allowed(parseTuple('Team:t5#members@ada'), 4)).toBe(false);
    expect(await engine.allowed(parseTuple('Team:t6#members@ada'), 100)).toBe(false);
    expect(await engine.allowed(parseTuple('Team:t6#members@ada'), 0)).toBe(false);
  });

  it('stops cyclic subject sets and cyclic permits within its limits', async () => {
    const cyclicSets = engineFor(ORGANIZATIONS_AND_TEAMS, ['Team:a#members@Team:b#members', 'Team:b#members@Team:a#members']);
    expect(await cyclicSets.allowed(parseTuple('Team:a#members@ada'))).toBe(false);

    const cyclicPermits = engineFor(
      `class User implements Namespace {}
class Doc implements Namespace {
  related: { owners: User[] }
  permits = {
    a: (ctx: Context) => this.permits.b(ctx) && this.related.owners.includes(ctx.subject),
    b: (ctx: Context) => this.permits.a(ctx) && this.related.owners.includes(ctx.subject),
  }
}`,
      ['Doc:d#owners@ada'],
    );
    await expect(cyclicPermits.check(parseTuple('Doc:d#a@ada'))).rejects.toBeInstanceOf(CheckNotCompletedError);
  });

  it('expands no more subject sets per hop than the read width, and says so', async () => {
    const sets = Array.from({ length: 5 }, (_, i) => `Organization:acme#members@Team:t${i}#members`);
    const engine = engineFor(ORGANIZATIONS_AND_TEAMS, [...sets, 'Team:t4#members@ada'], { ...DEFAULT_LIMITS, maxReadWidth: 3 });
    expect(await engine.check(parseTuple('Organization:acme#members@bob'))).toMatchObject({ membership: 'unknown', limitation: 'max_width_exceeded' });
  });

  it('explains an answer: the rule, the traversal and the tuple that decided it', async () => {
    const engine = engineFor(DOCUMENTS_AND_FOLDERS, [
      'Group:developer#members@patrik',
      'Folder:keto#viewers@Group:developer#members',
      'File:readme#parents@Folder:keto#',
    ]);
    const { membership, trace } = await engine.check(parseTuple('File:readme#view@patrik'), { trace: true });
    expect(membership).toBe('member');
    const path: string[] = [];
    const walk = (node: TraceNode): boolean => {
      if (node.result !== 'member') return false;
      path.push(`${node.kind} ${node.namespace}:${node.object}#${node.relation}`);
      if (node.kind === 'direct' && node.tuple) return true;
      return node.children.some(walk) || (path.pop(), false);
    };
    expect(walk(trace!)).toBe(true);
    expect(path[0]).toBe('check File:readme#view');
    expect(path).toContain('traverse Folder:keto#view');
    expect(path.at(-1)).toBe('direct Group:developer#members');
    const denied = await engine.check(parseTuple('File:readme#view@nobody'), { trace: true });
    expect(denied.membership).toBe('not_member');
    expect(denied.trace!.result).toBe('not_member');
    expect(denied.trace!.children.length).toBeGreaterThan(0);
  });
});

describe('PermissionEngine.batchCheck', () => {
  it('answers each tuple in order, an abandoned check with its error', async () => {
    const engine = engineFor(
      `class User implements Namespace {}
class Doc implements Namespace {
  related: { owners: User[] }
  permits = {
    a: (ctx: Context) => this.permits.b(ctx) && this.related.owners.includes(ctx.subject),
    b: (ctx: Context) => this.permits.a(ctx) && this.related.owners.includes(ctx.subject),
    edit: (ctx: Context) => this.related.owners.includes(ctx.subject),
  }
}`,
      ['Doc:d#owners@ada'],
    );
    expect(await engine.batchCheck([parseTuple('Doc:d#edit@ada'), parseTuple('Doc:d#a@ada'), parseTuple('Doc:d#edit@bob')])).toEqual([
      { allowed: true },
      { allowed: false, error: 'The check could not be completed' },
      { allowed: false },
    ]);
  });
});

describe('PermissionEngine.expand', () => {
  it('expands a subject set into its subjects and nested sets, to the depth asked', async () => {
    const engine = engineFor(ORGANIZATIONS_AND_TEAMS, [
      'Team:backend#members@ada',
      'Team:backend#members@bob',
      'Team:engineering#members@Team:backend#members',
      'Team:engineering#members@cy',
    ]);
    const tree = await engine.expand({ namespace: 'Team', object: 'engineering', relation: 'members' });
    expect(tree).toEqual({
      type: 'union',
      subject: { set: { namespace: 'Team', object: 'engineering', relation: 'members' } },
      children: [
        {
          type: 'union',
          subject: { set: { namespace: 'Team', object: 'backend', relation: 'members' } },
          children: [
            { type: 'leaf', subject: { id: 'ada' }, children: [] },
            { type: 'leaf', subject: { id: 'bob' }, children: [] },
          ],
        },
        { type: 'leaf', subject: { id: 'cy' }, children: [] },
      ],
    });
    const shallow = await engine.expand({ namespace: 'Team', object: 'engineering', relation: 'members' }, 2);
    expect(shallow.children[0]).toMatchObject({ type: 'union', children: [], truncated: 'depth' });
  });

  it('marks a cycle instead of following it', async () => {
    const engine = engineFor(ORGANIZATIONS_AND_TEAMS, ['Team:a#members@Team:b#members', 'Team:b#members@Team:a#members']);
    const tree = await engine.expand({ namespace: 'Team', object: 'a', relation: 'members' });
    expect(tree.children[0]!.children[0]).toMatchObject({ truncated: 'cycle' });
  });
});

describe('operator precedence', () => {
  // As in TypeScript, and as Keto reads its rules: && binds tighter than ||, whichever comes first.
  const PRECEDENCE_OPL = `
class User implements Namespace {}
class Doc implements Namespace {
  related: { a: User[]; b: User[]; c: User[] }
  permits = {
    orFirst: (ctx: Context) => this.related.a.includes(ctx.subject) || this.related.b.includes(ctx.subject) && this.related.c.includes(ctx.subject),
    andFirst: (ctx: Context) => this.related.b.includes(ctx.subject) && this.related.c.includes(ctx.subject) || this.related.a.includes(ctx.subject),
    grouped: (ctx: Context) => (this.related.a.includes(ctx.subject) || this.related.b.includes(ctx.subject)) && this.related.c.includes(ctx.subject),
  }
}`;

  it('parses a || b && c as a || (b && c), and a && b || c as (a && b) || c', () => {
    const { namespaces, errors } = parseOpl(PRECEDENCE_OPL);
    expect(errors).toEqual([]);
    const permits = new Map(namespaces.find((n) => n.name === 'Doc')!.relations.map((r) => [r.name, r.rewrite]));
    const rel = (relation: string) => ({ type: 'computed', relation });
    const bAndC = { type: 'and', children: [rel('b'), rel('c')] };
    expect(permits.get('orFirst')).toEqual({ type: 'or', children: [rel('a'), bAndC] });
    expect(permits.get('andFirst')).toEqual({ type: 'or', children: [bAndC, rel('a')] });
    expect(permits.get('grouped')).toEqual({ type: 'and', children: [{ type: 'or', children: [rel('a'), rel('b')] }, rel('c')] });
  });

  it('answers as (b && c) binds first: a alone passes "a || b && c", b alone does not', async () => {
    const engine = engineFor(PRECEDENCE_OPL, ['Doc:d#a@ann', 'Doc:d#b@bob', 'Doc:d#b@cy', 'Doc:d#c@cy']);
    const allowed = async (relation: string, who: string) => (await engine.check(parseTuple(`Doc:d#${relation}@${who}`))).membership;
    expect(await allowed('orFirst', 'ann')).toBe('member');
    expect(await allowed('orFirst', 'bob')).toBe('not_member');
    expect(await allowed('orFirst', 'cy')).toBe('member');
    expect(await allowed('andFirst', 'ann')).toBe('member');
    expect(await allowed('andFirst', 'bob')).toBe('not_member');
    // Grouped by parentheses, a alone is no longer enough.
    expect(await allowed('grouped', 'ann')).toBe('not_member');
    expect(await allowed('grouped', 'cy')).toBe('member');
  });
});

describe('round trips of a check', () => {
  it('reads each object a check reaches once: two reads for a file seen through its folder, allowed or denied (seven one by one)', async () => {
    const { namespaces } = parseOpl(DOCUMENTS_AND_FOLDERS);
    const store = new MemoryTupleStore(
      ['Group:g#members@ada', 'Folder:d#viewers@Group:g#members', 'File:f#parents@Folder:d#'].map(parseTuple),
    );
    const calls: string[] = [];
    const counted = new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function' || name === 'constructor') return value;
        return (...args: unknown[]) => {
          calls.push(String(name));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    // The store's own lookahead calls its other methods on the target, not through the proxy: one call, one read.
    const engine = new PermissionEngine(namespaces, counted, DEFAULT_LIMITS);
    // File: view, viewers, owners and parents with their sets (1); Folder: view, viewers and parents (1), whose
    // group holds ada.
    expect(await engine.allowed(parseTuple('File:f#view@ada'))).toBe(true);
    expect(calls).toEqual(['lookahead', 'lookahead']);
    calls.length = 0;
    // Denied: the group has no subject sets of its own, so the folder's read already tells all it holds.
    expect(await engine.allowed(parseTuple('File:f#view@bob'))).toBe(false);
    expect(calls).toEqual(['lookahead', 'lookahead']);
    calls.length = 0;
    // A group with a nested group is read when a check reaches it.
    store.add(parseTuple('Group:g#members@Group:h#members'));
    store.add(parseTuple('Group:h#members@bob'));
    expect(await engine.allowed(parseTuple('File:f#view@bob'))).toBe(true);
    expect(calls).toEqual(['lookahead', 'lookahead', 'lookahead']);
  });
});
