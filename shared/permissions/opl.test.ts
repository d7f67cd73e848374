import { describe, expect, it } from 'vitest';
import { DOCUMENTS_AND_FOLDERS, ORGANIZATIONS_AND_TEAMS } from './templates';
import { parseOpl, sourcePosition } from './opl';

describe('parseOpl', () => {
  it('reads namespaces, relation types and permits of the documents example', () => {
    const { namespaces, errors } = parseOpl(DOCUMENTS_AND_FOLDERS);
    expect(errors).toEqual([]);
    expect(namespaces.map((n) => n.name)).toEqual(['User', 'Group', 'Folder', 'File']);
    const file = namespaces.find((n) => n.name === 'File')!;
    expect(file.relations.find((r) => r.name === 'viewers')!.types).toEqual([{ namespace: 'User' }, { namespace: 'Group', relation: 'members' }]);
    expect(file.relations.find((r) => r.name === 'view')!.rewrite).toEqual({
      type: 'or',
      children: [
        { type: 'traverse', relation: 'parents', computedRelation: 'view' },
        { type: 'computed', relation: 'viewers' },
        { type: 'computed', relation: 'owners' },
      ],
    });
    expect(file.relations.find((r) => r.name === 'edit')!.rewrite).toEqual({ type: 'computed', relation: 'owners' });
  });

  it('reads &&, || and ! with TypeScript precedence and flattens chains', () => {
    const { namespaces, errors } = parseOpl(ORGANIZATIONS_AND_TEAMS);
    expect(errors).toEqual([]);
    const org = namespaces.find((n) => n.name === 'Organization')!;
    expect(org.relations.find((r) => r.name === 'view')!.rewrite).toEqual({
      type: 'and',
      children: [
        { type: 'or', children: [{ type: 'computed', relation: 'members' }, { type: 'computed', relation: 'manage' }] },
        { type: 'not', child: { type: 'computed', relation: 'banned' } },
      ],
    });
  });

  it('accepts what Keto accepts: Array<…>, quoted names, comments, trailing commas, semicolons, single quotes', () => {
    const { errors, namespaces } = parseOpl(`
import { Namespace, SubjectSet, Context } from '@ory/keto-namespace-types';
class Role implements Namespace {
  related: {
    member: Role[];
  };
}
class Resource implements Namespace {
  related: {
    "admins": Array<SubjectSet<Role, 'member'>>,
    readers: Array<Role | SubjectSet<Role, "member">>,
  };
  permits = {
    'read': (ctx: Context) => this.related.admins.traverse((role) /* c */ => role.related.member.includes(ctx.subject),) ||
      this.related["readers"].includes(ctx.subject), // comment
    comment: (ctx) => this.permits.read(ctx),
  };
}`);
    expect(errors).toEqual([]);
    expect(namespaces[1]!.relations.map((r) => r.name)).toEqual(['admins', 'readers', 'read', 'comment']);
  });

  it('answers a syntax error with its position, as /opl/syntax/check', () => {
    const source = 'class User implements Namespace {}\nclass Doc implements Namespace {\n  related: {\n    owners: User[\n  }\n}\n';
    const { errors } = parseOpl(source);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe("']' expected.");
    expect(errors[0]!.start.Line).toBe(5);
  });

  it('names an expression outside the language at its line and column', () => {
    const source = [
      'class User implements Namespace {}',
      'class Doc implements Namespace {',
      '  related: { owners: User[] }',
      '  permits = {',
      '    view: (ctx: Context) => this.related.owners.contains(ctx.subject),',
      '  }',
      '}',
    ].join('\n');
    const { errors } = parseOpl(source);
    expect(errors).toEqual([
      { message: `expected 'traverse' or 'includes', got "contains"`, start: { Line: 5, column: 48 }, end: { Line: 5, column: 56 } },
    ]);
    // Keto's column counts from 0 within the line (the character before the token, counted from 1).
    expect(source.split('\n')[4]!.slice(48, 56)).toBe('contains');
  });

  it('type-checks names as Keto: undeclared namespaces and relations', () => {
    const { errors } = parseOpl(`class Doc implements Namespace {
  related: {
    owners: User[]
    viewers: SubjectSet<Doc, "nobody">[]
  }
  permits = {
    view: (ctx: Context) => this.permits.edit(ctx),
  }
}`);
    expect(errors.map((e) => [e.message, e.start.Line])).toEqual([
      ['namespace "User" was not declared', 3],
      ['namespace "Doc" did not declare relation "nobody"', 4],
      ['namespace "Doc" did not declare relation "edit"', 7],
    ]);
  });

  it('checks that every type a traverse reaches declares the relation', () => {
    const { errors } = parseOpl(`class User implements Namespace {}
class Folder implements Namespace {}
class Doc implements Namespace {
  related: { parents: (Folder | Doc)[] }
  permits = { view: (ctx: Context) => this.related.parents.traverse((p) => p.permits.view(ctx)) }
}`);
    expect(errors.map((e) => e.message)).toEqual(['relation "view" was not declared in namespace "Folder"']);
  });

  it('refuses what the language does not have', () => {
    const cases: [string, string][] = [
      ['class A {}', 'expected "implements", got "{"'],
      ['class A implements Namespace { foo = 1 }', `expected 'permits' or 'related', got "foo"`],
      ['class A implements Namespace { related: { r: number } }', 'expected an array of subject types'],
      ['class A implements Namespace { related: { r: A[] }\n permits = { p: (ctx) => this.related.r.includes(ctx.subject) && true } }', 'expected "this", got "true"'],
      ['class A implements Namespace { related: { r: A[] }\n permits = { p: (ctx) => this.foo.r(ctx) } }', `expected 'related' or 'permits', got "foo"`],
      ['class A implements Namespace { related: { r: A[] }\n permits = { p: (ctx) => { return true } } }', 'expected an expression, got "{"'],
      ['class A implements Namespace { related: { r: A[] }\n permits = { p: (ctx) => this.related.r.includes(ctx) } }', 'expected "ctx.subject", got "ctx"'],
      ['const x = 1', 'expected "class", got "const"'],
    ];
    for (const [source, message] of cases) {
      const { errors, namespaces } = parseOpl(source);
      expect(errors[0]?.message, source).toContain(message);
      expect(namespaces).toEqual([]);
    }
  });

  it('limits nesting to ten groups, as Keto', () => {
    const nested = (n: number) =>
      `class A implements Namespace { related: { r: A[] }\n permits = { p: (ctx) => ${'('.repeat(n)}this.related.r.includes(ctx.subject)${')'.repeat(n)} } }`;
    expect(parseOpl(nested(9)).errors).toEqual([]);
    expect(parseOpl(nested(10)).errors[0]!.message).toBe('expression nested too deeply; maximal nesting depth is 10');
  });

  it('computes positions the way Keto does', () => {
    expect(sourcePosition('abc\ndef', 0)).toEqual({ Line: 1, column: 1 });
    expect(sourcePosition('abc\ndef', 2)).toEqual({ Line: 1, column: 2 });
    expect(sourcePosition('abc\ndef', 5)).toEqual({ Line: 2, column: 1 });
    expect(sourcePosition('abc\ndef', 6)).toEqual({ Line: 2, column: 2 });
  });
});
