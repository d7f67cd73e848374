/**
 * Keto's expansion of permits' rules and its strict mode, on the scenarios Keto's own tests use
 * (internal/expand/engine_test.go, internal/check/engine_test.go, internal/check/step/expand_test.go), with the
 * answers Keto gives there. Trees are compared as Keto compares them: children in any order.
 */
import { describe, expect, it } from 'vitest';
import { CheckNotCompletedError, DEFAULT_LIMITS, DEFAULT_MODE, NoRelationTupleError, PermissionEngine, UnknownRelationError, type EngineMode, type ExpandTree } from './engine';
import { MemoryTupleStore, parseTuple } from './memory-store';
import { subjectToString } from './model';
import { parseOpl } from './opl';

function engineFor(opl: string, tuples: string[], mode: Partial<EngineMode> = {}, limits = DEFAULT_LIMITS): PermissionEngine {
  const { namespaces, errors } = parseOpl(opl);
  expect(errors).toEqual([]);
  return new PermissionEngine(namespaces, new MemoryTupleStore(tuples.map(parseTuple)), limits, { ...DEFAULT_MODE, ...mode });
}

/** A tree as indented lines `type subject`, children sorted by their text; compound parts have no subject. */
function render(tree: ExpandTree, indent = ''): string {
  const children = tree.children.map((c) => render(c, `${indent}  `)).sort();
  const head = `${indent}${tree.children.length === 0 && tree.type !== 'leaf' ? 'union' : tree.type} ${tree.subject ? subjectToString(tree.subject) : ''}`.trimEnd();
  return [head, ...children].join('\n');
}

const T = (lines: string) =>
  lines
    .trim()
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n');

/** Renders an expected tree the way `render` does (children sorted at every level). */
function expected(text: string): string {
  interface Line {
    text: string;
    children: Line[];
  }
  const root: Line[] = [];
  const stack: { depth: number; node: Line }[] = [];
  for (const raw of T(text).split('\n')) {
    const depth = raw.length - raw.trimStart().length;
    const node = { text: raw.trim(), children: [] };
    while (stack.length > 0 && stack.at(-1)!.depth >= depth) stack.pop();
    (stack.length > 0 ? stack.at(-1)!.node.children : root).push(node);
    stack.push({ depth, node });
  }
  const out = (node: Line, indent: string): string => [`${indent}${node.text}`, ...node.children.map((c) => out(c, `${indent}  `)).sort()].join('\n');
  return out(root[0]!, '');
}

const FILES = `
class User implements Namespace {}
class Group implements Namespace {
  related: { members: User[] }
}
class File implements Namespace {
  related: {
    viewers: User[]
    editors: User[]
    owners: User[]
    blocklist: User[]
    blocklist1: User[]
    blocklist2: User[]
    viewerGroups: Group[]
  }
  permits = {
    view: (ctx: Context) => this.related.viewers.includes(ctx.subject),
    notView: (ctx: Context) => !this.related.viewers.includes(ctx.subject),
    blocked: (ctx: Context) => this.related.viewers.includes(ctx.subject) && !this.related.blocklist.includes(ctx.subject),
    twoLists: (ctx: Context) => this.related.viewers.includes(ctx.subject) && !(this.related.blocklist1.includes(ctx.subject) && this.related.blocklist2.includes(ctx.subject)),
    orTraverse: (ctx: Context) => this.related.viewers.includes(ctx.subject) || this.related.viewerGroups.traverse((g) => g.related.members.includes(ctx.subject)),
    andTraverse: (ctx: Context) => this.related.viewers.includes(ctx.subject) && this.related.viewerGroups.traverse((g) => g.related.members.includes(ctx.subject)),
    viewUser: (ctx: Context) => this.related.viewers.includes(ctx.subject),
    viewGroup: (ctx: Context) => this.related.viewerGroups.traverse((g) => g.related.members.includes(ctx.subject)),
    both: (ctx: Context) => this.permits.viewUser(ctx) && this.permits.viewGroup(ctx),
    compound: (ctx: Context) => (this.related.viewers.includes(ctx.subject) || this.related.editors.includes(ctx.subject)) && this.related.owners.includes(ctx.subject),
  }
}`;

describe('expand follows the permits (Keto with expand_rewrites)', () => {
  const tuples = ['File:f1#viewers@User:1#', 'File:f1#viewers@User:2#', 'File:f1#blocklist@User:1#', 'File:f1#editors@User:3#', 'File:f1#owners@User:3#'];
  const expand = async (relation: string, extra: string[] = [], mode: Partial<EngineMode> = {}) =>
    render(await engineFor(FILES, [...tuples, ...extra], mode).expand({ namespace: 'File', object: 'f1', relation }));

  it('a single relation: a union for the permit over the relation it reads', async () => {
    expect(await expand('view')).toBe(
      expected(`
union File:f1#view
  union File:f1#viewers
    leaf User:1#
    leaf User:2#`),
    );
  });

  it('a negation: an exclusion without a subject', async () => {
    expect(await expand('notView')).toBe(
      expected(`
union File:f1#view
  exclusion
    union File:f1#viewers
      leaf User:1#
      leaf User:2#`).replace('File:f1#view', 'File:f1#notView'),
    );
  });

  it('the blocklist example: an intersection of the viewers and an exclusion of the blocklist', async () => {
    expect(await expand('blocked')).toBe(
      expected(`
intersection File:f1#blocked
  union File:f1#viewers
    leaf User:1#
    leaf User:2#
  exclusion
    union File:f1#blocklist
      leaf User:1#`),
    );
  });

  it('a negated group: its intersection has no subject', async () => {
    expect(await expand('twoLists', ['File:f1#blocklist1@User:1#', 'File:f1#blocklist2@User:2#'])).toBe(
      expected(`
intersection File:f1#twoLists
  union File:f1#viewers
    leaf User:1#
    leaf User:2#
  exclusion
    intersection
      union File:f1#blocklist1
        leaf User:1#
      union File:f1#blocklist2
        leaf User:2#`),
    );
  });

  it('a traversal: a union for the relation it walks, each object reached expanded at the relation it asks', async () => {
    const extra = ['Group:g1#members@User:4#', 'File:f1#viewerGroups@Group:g1#'];
    expect(await expand('orTraverse', extra)).toBe(
      expected(`
union File:f1#orTraverse
  union File:f1#viewers
    leaf User:1#
    leaf User:2#
  union File:f1#viewerGroups
    union Group:g1#members
      leaf User:4#`),
    );
    // Nothing to walk: the traversal's node has no children, a leaf on the wire.
    expect(await expand('andTraverse')).toBe(
      expected(`
intersection File:f1#andTraverse
  union File:f1#viewers
    leaf User:1#
    leaf User:2#
  union File:f1#viewerGroups`),
    );
  });

  it('permits of permits, and a compound part without a subject', async () => {
    const extra = ['Group:g1#members@User:4#', 'File:f1#viewerGroups@Group:g1#'];
    expect(await expand('both', extra)).toBe(
      expected(`
intersection File:f1#both
  union File:f1#viewUser
    union File:f1#viewers
      leaf User:1#
      leaf User:2#
  union File:f1#viewGroup
    union File:f1#viewerGroups
      union Group:g1#members
        leaf User:4#`),
    );
    expect(await expand('compound')).toBe(
      expected(`
intersection File:f1#compound
  union File:f1#owners
    leaf User:3#
  union
    union File:f1#viewers
      leaf User:1#
      leaf User:2#
    union File:f1#editors
      leaf User:3#`),
    );
  });

  it('cuts a cycle of traversals where it closes', async () => {
    const opl = `
class User implements Namespace {}
class Group implements Namespace {
  related: { members: User[]; parent: Group[] }
  permits = {
    isMember: (ctx: Context) => this.related.members.includes(ctx.subject) || this.related.parent.traverse((g) => g.permits.isMember(ctx))
  }
}`;
    const engine = engineFor(opl, ['Group:g1#members@User:4#', 'Group:g1#parent@Group:g2#', 'Group:g2#members@User:5#', 'Group:g2#parent@Group:g1#']);
    const tree = await engine.expand({ namespace: 'Group', object: 'g1', relation: 'isMember' }, 5);
    expect(render(tree)).toBe(
      expected(`
union Group:g1#isMember
  union Group:g1#members
    leaf User:4#
  union Group:g1#parent
    union Group:g2#isMember
      union Group:g2#members
        leaf User:5#
      union Group:g2#parent
        union Group:g1#isMember`),
    );
  });

  it('without expand_rewrites, a permit expands to the tuples stored under its name', async () => {
    expect(await expand('view', ['File:f1#view@User:9#'], { expandRewrites: false })).toBe(
      expected(`
union File:f1#view
  leaf User:9#`),
    );
  });
});

/** Keto's FileWithNonConformingTuples: a client stored tuples under the permits' names. */
const NON_CONFORMING = `
class User implements Namespace {}
class File implements Namespace {
  related: {
    editors: User[]
    viewers: User[]
  }
  permits = {
    canEdit: (ctx: Context) => this.related.editors.includes(ctx.subject),
    canView: (ctx: Context) => this.permits.canEdit(ctx) || this.related.viewers.includes(ctx.subject),
  }
}`;
const NON_CONFORMING_TUPLES = ['File:secret-doc#editors@User:Alice#', 'File:secret-doc#viewers@User:Bob#', 'File:secret-doc#canEdit@User:Eve#', 'File:secret-doc#canEdit@Eve'];

describe("Keto's strict mode", () => {
  const member = async (engine: PermissionEngine, tuple: string) => (await engine.check(parseTuple(tuple))).membership;

  it('ignores tuples stored under a permit, which non-strict mode counts', async () => {
    const strict = engineFor(NON_CONFORMING, NON_CONFORMING_TUPLES, { strict: true });
    const lax = engineFor(NON_CONFORMING, NON_CONFORMING_TUPLES);
    for (const tuple of ['File:secret-doc#viewers@User:Bob#', 'File:secret-doc#editors@User:Alice#', 'File:secret-doc#canView@User:Bob#', 'File:secret-doc#canEdit@User:Alice#', 'File:secret-doc#canView@User:Alice#']) {
      expect(await member(strict, tuple), tuple).toBe('member');
      expect(await member(lax, tuple), tuple).toBe('member');
    }
    for (const tuple of ['File:secret-doc#canEdit@User:Eve#', 'File:secret-doc#canView@User:Eve#', 'File:secret-doc#canEdit@Eve', 'File:secret-doc#canView@Eve']) {
      expect(await member(strict, tuple), tuple).toBe('not_member');
    }
    expect(await member(lax, 'File:secret-doc#canEdit@User:Eve#')).toBe('member');
    expect(await member(lax, 'File:secret-doc#canView@User:Eve#')).toBe('member');
  });

  it('follows only the subject sets a relation declares (a stale pointer grants nothing)', async () => {
    const opl = `
class User implements Namespace {}
class Group implements Namespace {
  related: { members: User[]; admins: User[] }
}
class File implements Namespace {
  related: { viewers: SubjectSet<Group, "admins">[] }
}`;
    const tuples = ['Group:g#members@alice', 'Group:g#admins@bob', 'File:f#viewers@Group:g#members', 'File:f#viewers@Group:g#admins'];
    const strict = engineFor(opl, tuples, { strict: true });
    const lax = engineFor(opl, tuples);
    expect(await member(strict, 'File:f#viewers@bob')).toBe('member');
    expect(await member(strict, 'File:f#viewers@alice')).toBe('not_member');
    expect(await member(lax, 'File:f#viewers@alice')).toBe('member');
  });

  it('answers a check a limit cut short with 422 naming the limit, and a batch with the limit as its error', async () => {
    const opl = `
class User implements Namespace {}
class Group implements Namespace {
  related: { members: (User | SubjectSet<Group, "members">)[] }
}`;
    const tuples = ['Group:a#members@Group:b#members', 'Group:b#members@Group:c#members', 'Group:c#members@Group:d#members', 'Group:d#members@ada'];
    const strict = engineFor(opl, tuples, { strict: true });
    const lax = engineFor(opl, tuples);
    const tuple = parseTuple('Group:a#members@ada');
    await expect(strict.allowed(tuple, 2)).rejects.toEqual(new CheckNotCompletedError('max_depth_exceeded'));
    await expect(strict.allowed(tuple, 2)).rejects.toMatchObject({ message: 'The check could not be completed', reason: 'max_depth_exceeded' });
    expect(await lax.allowed(tuple, 2)).toBe(false);
    expect(await strict.allowed(tuple)).toBe(true);
    expect(await strict.batchCheck([tuple], 2)).toEqual([{ allowed: false, error: 'max_depth_exceeded' }]);
    expect(await lax.batchCheck([tuple], 2)).toEqual([{ allowed: false }]);
  });

  it('expands only declared relations and subjects of declared types; nothing to expand at the root is an error', async () => {
    const opl = `
class User implements Namespace {}
class Group implements Namespace {
  related: { viewers: User[] }
}
class File implements Namespace {
  related: {
    groupViewers: SubjectSet<Group, "viewers">[]
    groups: Group[]
  }
  permits = {
    view: (ctx: Context) => this.related.groupViewers.includes(ctx.subject) || this.related.groups.traverse((g) => g.related.viewers.includes(ctx.subject))
  }
}`;
    const tuples = ['Group:g1#editors@User:1#', 'Group:g2#editors@User:2#', 'File:f1#groupViewers@Group:g1#readers', 'File:f1#groups@Group:g2#'];
    const strict = engineFor(opl, tuples, { strict: true });
    expect(render(await strict.expand({ namespace: 'File', object: 'f1', relation: 'view' }))).toBe(
      expected(`
union File:f1#view
  union File:f1#groupViewers
  union File:f1#groups
    union Group:g2#viewers`),
    );
    await expect(strict.expand({ namespace: 'File', object: 'f1', relation: 'undefined' })).rejects.toBeInstanceOf(NoRelationTupleError);
    const lax = engineFor(opl, [...tuples, 'File:f1#undefined@User:1#']);
    expect(render(await lax.expand({ namespace: 'File', object: 'f1', relation: 'undefined' }))).toBe(expected(`union File:f1#undefined\n  leaf User:1#`));
  });
});

describe('a relation the rules do not declare', () => {
  it('is refused in a namespace that declares relations, in either mode, and passes in one that declares none', async () => {
    for (const strict of [false, true]) {
      const engine = engineFor(NON_CONFORMING, NON_CONFORMING_TUPLES, { strict });
      await expect(engine.check(parseTuple('File:secret-doc#owners@alice'))).rejects.toMatchObject({ reason: 'relation "owners" does not exist' });
      await expect(engine.check(parseTuple('File:secret-doc#owners@alice'))).rejects.toBeInstanceOf(UnknownRelationError);
      expect(await engine.batchCheck([parseTuple('File:secret-doc#owners@alice')])).toEqual([{ allowed: false, error: 'The request was malformed or contained invalid parameters' }]);
    }
    const engine = engineFor(NON_CONFORMING, ['User:alice#friends@bob']);
    expect((await engine.check(parseTuple('User:alice#friends@bob'))).membership).toBe('member');
  });
});
