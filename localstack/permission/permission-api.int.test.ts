import { Configuration, PermissionApi, RelationshipApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS_AND_FOLDERS, ORGANIZATIONS_AND_TEAMS } from '../../shared/permissions/templates';
import { usageBetween, dayOf } from '../billing/usage';
import { addProjectMember, rawCall, startTestStack } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { locationOfOpl } from './rules';

let stack: LocalStack;
let owner: TestUser;
let outsider: TestUser;
let docs: TestProject;
let orgs: TestProject;
let other: TestProject;

async function setRules(user: TestUser, projectId: string, opl: string): Promise<void> {
  const answer = await user.projects.patchProject({
    projectId,
    jsonPatch: [{ op: 'add', path: '/services/permission', value: { config: { namespaces: { location: locationOfOpl(opl) } } } }],
  });
  expect(answer.status).toBe(200);
}

const apis = (project: TestProject) => {
  const configuration = new Configuration({ basePath: project.base, accessToken: project.key });
  return { relationship: new RelationshipApi(configuration), permission: new PermissionApi(configuration) };
};

const keto = (project: TestProject, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(project.base, method, path, { key: project.key, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });

const tuples = [
  { namespace: 'Group', object: 'developer', relation: 'members', subject_id: 'patrik' },
  { namespace: 'Group', object: 'developer', relation: 'members', subject_id: 'henning' },
  { namespace: 'Folder', object: 'keto/', relation: 'viewers', subject_set: { namespace: 'Group', object: 'developer', relation: 'members' } },
  { namespace: 'File', object: 'keto/README.md', relation: 'parents', subject_set: { namespace: 'Folder', object: 'keto/', relation: '' } },
  { namespace: 'Folder', object: 'keto/src/', relation: 'parents', subject_set: { namespace: 'Folder', object: 'keto/', relation: '' } },
  { namespace: 'File', object: 'keto/src/main.go', relation: 'parents', subject_set: { namespace: 'Folder', object: 'keto/src/', relation: '' } },
  { namespace: 'File', object: 'private', relation: 'owners', subject_id: 'henning' },
];

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Owner');
  outsider = await newUser(stack, 'Outsider');
  docs = await projectWithKey(stack, owner, 'Docs');
  orgs = await projectWithKey(stack, owner, 'Orgs');
  other = await projectWithKey(stack, outsider, 'Other');
  await setRules(owner, docs.id, DOCUMENTS_AND_FOLDERS);
  await setRules(owner, orgs.id, ORGANIZATIONS_AND_TEAMS);
  await setRules(outsider, other.id, DOCUMENTS_AND_FOLDERS);
  const { relationship } = apis(docs);
  await relationship.patchRelationships({ relationshipPatch: tuples.map((relation_tuple) => ({ action: 'insert', relation_tuple })) });
});

afterAll(async () => {
  await stack?.close();
});

describe("Keto's relationship API on a project's data plane", () => {
  it('creates a tuple with 201 and names it in Location, then lists it by every filter', async () => {
    const { relationship } = apis(docs);
    const created = await relationship.createRelationship({
      createRelationshipBody: { namespace: 'File', object: 'notes.txt', relation: 'viewers', subject_id: 'ada' },
    });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({ namespace: 'File', object: 'notes.txt', relation: 'viewers', subject_id: 'ada' });
    expect(created.headers.location).toBe(`${docs.base}/relation-tuples?namespace=File&relation=viewers&object=notes.txt&subject_id=ada`);

    const bySubject = await relationship.getRelationships({ subjectId: 'ada' });
    expect(bySubject.data).toEqual({ relation_tuples: [created.data], next_page_token: '' });
    const bySet = await relationship.getRelationships({
      namespace: 'Folder',
      subjectSetNamespace: 'Group',
      subjectSetObject: 'developer',
      subjectSetRelation: 'members',
    });
    expect(bySet.data.relation_tuples).toEqual([tuples[2]]);
    const byObject = await relationship.getRelationships({ namespace: 'File', object: 'private', relation: 'owners' });
    expect(byObject.data.relation_tuples).toEqual([tuples[6]]);
  });

  it('pages with page_size and an opaque page_token, and refuses a crafted token', async () => {
    const { relationship } = apis(docs);
    const seen: unknown[] = [];
    let token: string | undefined;
    do {
      const page = await relationship.getRelationships({ namespace: 'Group', pageSize: 1, ...(token ? { pageToken: token } : {}) });
      seen.push(...page.data.relation_tuples!);
      token = page.data.next_page_token || undefined;
    } while (token);
    expect(seen).toEqual([tuples[0], tuples[1]]);
    const crafted = await keto(docs, 'GET', '/relation-tuples?page_token=bm9wZQ');
    expect(crafted.status).toBe(400);
    // The sealed position of the first page's token cannot be rewritten to another one.
    const first = (await relationship.getRelationships({ namespace: 'Group', pageSize: 1 })).data.next_page_token!;
    expect(Buffer.from(first, 'base64url').toString('latin1')).not.toMatch(/^s\d+$/);
    const bytes = Buffer.from(first, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    expect((await keto(docs, 'GET', `/relation-tuples?namespace=Group&page_size=1&page_token=${bytes.toString('base64url')}`)).status).toBe(400);
  });

  it('answers what is missing in Keto\u2019s words', async () => {
    const noSubject = await keto(docs, 'PUT', '/admin/relation-tuples', { namespace: 'File', object: 'x', relation: 'viewers' });
    expect([noSubject.status, noSubject.body.error.message]).toEqual([400, 'subject is not allowed to be nil']);
    const both = await keto(docs, 'PUT', '/admin/relation-tuples', {
      namespace: 'File', object: 'x', relation: 'viewers', subject_id: 'a', subject_set: { namespace: 'Group', object: 'g', relation: 'members' },
    });
    expect(both.body.error.message).toBe('exactly one of subject_set or subject_id has to be provided');
    const unknown = await keto(docs, 'PUT', '/admin/relation-tuples', { namespace: 'Nope', object: 'x', relation: 'r', subject_id: 'a' });
    expect([unknown.status, unknown.body.error.reason]).toEqual([404, 'Unknown namespace with name "Nope".']);
    const incomplete = await keto(docs, 'GET', '/relation-tuples/check?namespace=File&object=x&subject_id=a');
    expect([incomplete.status, incomplete.body.error.message]).toEqual([400, 'incomplete tuple, provide "namespace", "object", "relation", and a subject']);
    const partialSet = await keto(docs, 'GET', '/relation-tuples?subject_set.namespace=Group');
    expect(partialSet.body.error.message).toBe('incomplete subject, provide "subject_id" or a complete "subject_set.*"');
    const dropped = await keto(docs, 'GET', '/relation-tuples?subject=a');
    expect(dropped.body.error.message).toBe('provide "subject_id" or "subject_set.*"; support for "subject" was dropped');
    const depth = await keto(docs, 'GET', '/relation-tuples/check?namespace=File&object=x&relation=view&subject_id=a&max-depth=deep');
    expect(depth.body.error.message).toMatch(/^unable to parse 'max-depth' query parameter to int/);
    const deleteAll = await keto(docs, 'DELETE', '/admin/relation-tuples?object=x&color=red');
    expect([deleteAll.status, deleteAll.body.error.reason]).toEqual([
      400,
      'query parameter key "color" unknown; query parameters must specify at least one of the following: namespace',
    ]);
    const badPatch = await keto(docs, 'PATCH', '/admin/relation-tuples', [{ action: 'upsert', relation_tuple: tuples[0] }]);
    expect(badPatch.body.error.message).toBe('unknown action upsert');
    const missing = await keto(docs, 'PATCH', '/admin/relation-tuples', [{ action: 'insert' }]);
    expect(missing.body.error.message).toBe('relation_tuple is missing');
    // Text the database cannot store is a 400, never a failure of the service.
    const nul = await keto(docs, 'PUT', '/admin/relation-tuples', { namespace: 'File', object: 'a\u0000b', relation: 'viewers', subject_id: 'a' });
    const nulCheck = await keto(docs, 'GET', '/relation-tuples/check/openapi?namespace=File&object=a%00b&relation=view&subject_id=a');
    const nulList = await keto(docs, 'GET', '/relation-tuples?namespace=File&subject_id=a%00b');
    expect([nul.status, nulCheck.status, nulList.status]).toEqual([400, 400, 400]);
  });

  it('applies a patch atomically: one bad tuple and nothing is written', async () => {
    const before = (await apis(docs).relationship.getRelationships({ namespace: 'File', object: 'atomic' })).data.relation_tuples;
    const answer = await keto(docs, 'PATCH', '/admin/relation-tuples', [
      { action: 'insert', relation_tuple: { namespace: 'File', object: 'atomic', relation: 'viewers', subject_id: 'a' } },
      { action: 'insert', relation_tuple: { namespace: 'Nope', object: 'atomic', relation: 'viewers', subject_id: 'a' } },
    ]);
    expect(answer.status).toBe(404);
    expect((await apis(docs).relationship.getRelationships({ namespace: 'File', object: 'atomic' })).data.relation_tuples).toEqual(before);
  });

  it('deletes by query with 204', async () => {
    const { relationship } = apis(docs);
    for (const subject of ['x1', 'x2']) {
      await relationship.createRelationship({ createRelationshipBody: { namespace: 'File', object: 'trash', relation: 'viewers', subject_id: subject } });
    }
    const deleted = await relationship.deleteRelationships({ namespace: 'File', object: 'trash' });
    expect(deleted.status).toBe(204);
    expect((await relationship.getRelationships({ namespace: 'File', object: 'trash' })).data.relation_tuples).toEqual([]);
  });

  it('lists the namespaces of the rules and checks a text\u2019s syntax', async () => {
    const { relationship } = apis(docs);
    expect((await relationship.listRelationshipNamespaces()).data).toEqual({
      namespaces: [{ name: 'User' }, { name: 'Group' }, { name: 'Folder' }, { name: 'File' }],
    });
    expect((await relationship.checkOplSyntax({ body: DOCUMENTS_AND_FOLDERS })).data).toEqual({});
    const broken = await relationship.checkOplSyntax({ body: 'class A implements Namespace {\n  related: { r: B[] }\n}' });
    expect(broken.data).toEqual({
      errors: [{ message: 'namespace "B" was not declared', start: { Line: 2, column: 16 }, end: { Line: 2, column: 17 } }],
    });
  });
});

describe("Keto's permission API on a project's data plane", () => {
  it("gives Keto's answers to the documents example, 403 for denied on the mirroring routes", async () => {
    const { permission } = apis(docs);
    const cases: [string, string, string, string, boolean][] = [
      ['File', 'keto/src/main.go', 'view', 'patrik', true],
      ['File', 'keto/README.md', 'view', 'henning', true],
      ['File', 'private', 'view', 'henning', true],
      ['File', 'private', 'view', 'patrik', false],
      ['File', 'private', 'edit', 'henning', true],
      ['Folder', 'keto/', 'view', 'somebody', false],
    ];
    for (const [namespace, object, relation, subjectId, allowed] of cases) {
      const plain = await permission.checkPermission({ namespace, object, relation, subjectId });
      expect([plain.status, plain.data.allowed], `${object}#${relation}@${subjectId}`).toEqual([200, allowed]);
      const posted = await permission.postCheckPermission({ postCheckPermissionBody: { namespace, object, relation, subject_id: subjectId } });
      expect(posted.data.allowed).toBe(allowed);
      const mirrored = await keto(docs, 'GET', `/relation-tuples/check?${new URLSearchParams({ namespace, object, relation, subject_id: subjectId })}`);
      expect([mirrored.status, mirrored.body]).toEqual([allowed ? 200 : 403, { allowed }]);
      const mirroredPost = await keto(docs, 'POST', '/relation-tuples/check', { namespace, object, relation, subject_id: subjectId });
      expect(mirroredPost.status).toBe(allowed ? 200 : 403);
    }
    const sdk403 = await permission.checkPermissionOrError({ namespace: 'File', object: 'private', relation: 'view', subjectId: 'patrik' }).catch((e) => e.response);
    expect([sdk403.status, sdk403.data]).toEqual([403, { allowed: false }]);
  });

  it('answers intersections and exclusions, and an unknown namespace as not allowed', async () => {
    const { relationship, permission } = apis(orgs);
    await relationship.patchRelationships({
      relationshipPatch: [
        { action: 'insert', relation_tuple: { namespace: 'Team', object: 'backend', relation: 'members', subject_id: 'ada' } },
        {
          action: 'insert',
          relation_tuple: { namespace: 'Organization', object: 'acme', relation: 'members', subject_set: { namespace: 'Team', object: 'backend', relation: 'members' } },
        },
        { action: 'insert', relation_tuple: { namespace: 'Organization', object: 'acme', relation: 'admins', subject_id: 'mallory' } },
        { action: 'insert', relation_tuple: { namespace: 'Organization', object: 'acme', relation: 'banned', subject_id: 'mallory' } },
      ],
    });
    const allowed = async (relation: string, subjectId: string, namespace = 'Organization') =>
      (await permission.checkPermission({ namespace, object: 'acme', relation, subjectId })).data.allowed;
    expect(await allowed('view', 'ada')).toBe(true);
    expect(await allowed('manage', 'ada')).toBe(false);
    expect(await allowed('admins', 'mallory')).toBe(true);
    expect(await allowed('manage', 'mallory')).toBe(false);
    expect(await allowed('view', 'mallory')).toBe(false);
    expect(await allowed('view', 'ada', 'Nope')).toBe(false);
  });

  it('checks a batch in order, at most ten', async () => {
    const { permission } = apis(docs);
    const answer = await permission.batchCheckPermission({
      batchCheckPermissionBody: {
        tuples: [
          { namespace: 'File', object: 'private', relation: 'view', subject_id: 'henning' },
          { namespace: 'File', object: 'private', relation: 'view', subject_id: 'patrik' },
          { namespace: 'File', object: 'private', relation: 'view' },
          { namespace: 'Nope', object: 'private', relation: 'view', subject_id: 'henning' },
          { namespace: 'File', object: 'private', relation: 'view', subject_set: { namespace: 'Nope', object: 'x', relation: 'y' } },
        ],
      },
    });
    // As Keto's own end-to-end test answers: an unknown namespace is the error of its entry alone.
    const notFound = { allowed: false, error: 'The requested resource could not be found' };
    expect(answer.data).toEqual({ results: [{ allowed: true }, { allowed: false }, { allowed: false, error: 'subject is not allowed to be nil' }, notFound, notFound] });
    const single = await keto(docs, 'GET', '/relation-tuples/check?namespace=File&object=private&relation=view&subject_set.namespace=Nope&subject_set.object=x&subject_set.relation=y');
    expect([single.status, single.body]).toEqual([403, { allowed: false }]);
    const many = Array.from({ length: 11 }, () => tuples[0]);
    const refused = await keto(docs, 'POST', '/relation-tuples/batch/check', { tuples: many });
    expect([refused.status, refused.body.error.message]).toEqual([400, 'batch exceeds max size of 10']);
  });

  it('expands a subject set to the depth asked', async () => {
    const { permission } = apis(docs);
    const tree = await permission.expandPermissions({ namespace: 'Folder', object: 'keto/', relation: 'viewers' });
    expect(tree.data).toEqual({
      type: 'union',
      tuple: { namespace: '', object: '', relation: '', subject_set: { namespace: 'Folder', object: 'keto/', relation: 'viewers' } },
      children: [
        {
          type: 'union',
          tuple: { namespace: '', object: '', relation: '', subject_set: { namespace: 'Group', object: 'developer', relation: 'members' } },
          children: [
            { type: 'leaf', tuple: { namespace: '', object: '', relation: '', subject_id: 'patrik' } },
            { type: 'leaf', tuple: { namespace: '', object: '', relation: '', subject_id: 'henning' } },
          ],
        },
      ],
    });
    const shallow = await permission.expandPermissions({ namespace: 'Folder', object: 'keto/', relation: 'viewers', maxDepth: 2 });
    expect(shallow.data.children?.[0]).toEqual({
      type: 'leaf',
      tuple: { namespace: '', object: '', relation: '', subject_set: { namespace: 'Group', object: 'developer', relation: 'members' } },
    });
  });

  it('meters every check into the project\u2019s usage', async () => {
    const metered = await projectWithKey(stack, owner, 'Metered');
    await setRules(owner, metered.id, DOCUMENTS_AND_FOLDERS);
    const day = dayOf(stack.clock.now());
    const next = dayOf(new Date(stack.clock.now().getTime() + 86_400_000));
    const { permission } = apis(metered);
    for (let i = 0; i < 3; i++) await permission.checkPermission({ namespace: 'File', object: 'private', relation: 'view', subjectId: 'henning' });
    await permission.batchCheckPermission({ batchCheckPermissionBody: { tuples: [tuples[0]!, tuples[1]!] } });
    // Checks are written to the usage in the background, within a second.
    await expect.poll(async () => (await usageBetween(stack.db, [metered.id], day, next)).permissionChecks, { timeout: 5000 }).toBe(5);
  });
});

describe("Keto's expansion of permits and its strict mode, over HTTP", () => {
  const leaf = (subject: Record<string, unknown>) => ({ type: 'leaf', tuple: { namespace: '', object: '', relation: '', ...subject } });
  const node = (type: string, subject: Record<string, unknown>, children: unknown[]) => ({ type, tuple: { namespace: '', object: '', relation: '', ...subject }, children });
  const set = (namespace: string, object: string, relation: string) => ({ subject_set: { namespace, object, relation } });

  it('expands a permit into the unions, intersections and exclusions of its rule', async () => {
    const { relationship, permission } = apis(orgs);
    await relationship.patchRelationships({
      relationshipPatch: [
        { action: 'insert', relation_tuple: { namespace: 'Organization', object: 'initech', relation: 'members', subject_id: 'peter' } },
        { action: 'insert', relation_tuple: { namespace: 'Organization', object: 'initech', relation: 'admins', subject_id: 'bill' } },
        { action: 'insert', relation_tuple: { namespace: 'Organization', object: 'initech', relation: 'banned', subject_id: 'milton' } },
      ],
    });
    // manage: admins && !banned; view: (members || manage) && !banned.
    const manage = await permission.expandPermissions({ namespace: 'Organization', object: 'initech', relation: 'manage' });
    expect(manage.data).toEqual(
      node('intersection', set('Organization', 'initech', 'manage'), [
        node('union', set('Organization', 'initech', 'admins'), [leaf({ subject_id: 'bill' })]),
        node('exclusion', {}, [node('union', set('Organization', 'initech', 'banned'), [leaf({ subject_id: 'milton' })])]),
      ]),
    );
    const view = await permission.expandPermissions({ namespace: 'Organization', object: 'initech', relation: 'view' });
    expect(view.data).toEqual(
      node('intersection', set('Organization', 'initech', 'view'), [
        node('union', {}, [
          node('union', set('Organization', 'initech', 'members'), [leaf({ subject_id: 'peter' })]),
          node('intersection', set('Organization', 'initech', 'manage'), [
            node('union', set('Organization', 'initech', 'admins'), [leaf({ subject_id: 'bill' })]),
            node('exclusion', {}, [node('union', set('Organization', 'initech', 'banned'), [leaf({ subject_id: 'milton' })])]),
          ]),
        ]),
        node('exclusion', {}, [node('union', set('Organization', 'initech', 'banned'), [leaf({ subject_id: 'milton' })])]),
      ]),
    );
    // A traversal: the documents example's file view walks its parents to the folder's viewers.
    const file = await apis(docs).permission.expandPermissions({ namespace: 'File', object: 'keto/README.md', relation: 'view' });
    expect(file.data).toEqual(
      node('union', set('File', 'keto/README.md', 'view'), [
        leaf(set('File', 'keto/README.md', 'viewers')),
        leaf(set('File', 'keto/README.md', 'owners')),
        node('union', set('File', 'keto/README.md', 'parents'), [
          node('union', set('Folder', 'keto/', 'view'), [
            node('union', set('Folder', 'keto/', 'viewers'), [
              node('union', set('Group', 'developer', 'members'), [leaf({ subject_id: 'patrik' }), leaf({ subject_id: 'henning' })]),
            ]),
            leaf(set('Folder', 'keto/', 'parents')),
          ]),
        ]),
      ]),
    );
  });

  it('refuses a relation the namespace does not declare with Keto\u2019s 400', async () => {
    const refused = await keto(docs, 'GET', '/relation-tuples/check/openapi?namespace=File&object=private&relation=admins&subject_id=henning');
    expect([refused.status, refused.body.error.reason]).toEqual([400, 'relation "admins" does not exist']);
    const batch = await apis(docs).permission.batchCheckPermission({
      batchCheckPermissionBody: { tuples: [{ namespace: 'File', object: 'private', relation: 'admins', subject_id: 'henning' }, { namespace: 'File', object: 'private', relation: 'edit', subject_id: 'henning' }] },
    });
    expect(batch.data).toEqual({ results: [{ allowed: false, error: 'The request was malformed or contained invalid parameters' }, { allowed: true }] });
  });

  it('in strict mode ignores tuples under a permit, answers a limit with 422, and expands only what is declared', async () => {
    const strict = await projectWithKey(stack, owner, 'Strict');
    const opl = `class User implements Namespace {}
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
    const answer = await owner.projects.patchProject({
      projectId: strict.id,
      jsonPatch: [{ op: 'add', path: '/services/permission', value: { config: { namespaces: { location: locationOfOpl(opl) }, feature_flags: { strict_mode: true } } } }],
    });
    expect(answer.status).toBe(200);
    const { relationship, permission } = apis(strict);
    await relationship.patchRelationships({
      relationshipPatch: [
        { action: 'insert', relation_tuple: { namespace: 'File', object: 'doc', relation: 'editors', subject_id: 'alice' } },
        { action: 'insert', relation_tuple: { namespace: 'File', object: 'doc', relation: 'canEdit', subject_id: 'eve' } },
        { action: 'insert', relation_tuple: { namespace: 'File', object: 'doc', relation: 'viewers', subject_set: { namespace: 'Group', object: 'a', relation: 'members' } } },
        { action: 'insert', relation_tuple: { namespace: 'Group', object: 'a', relation: 'members', subject_set: { namespace: 'Group', object: 'b', relation: 'members' } } },
        { action: 'insert', relation_tuple: { namespace: 'Group', object: 'b', relation: 'members', subject_set: { namespace: 'Group', object: 'c', relation: 'members' } } },
        { action: 'insert', relation_tuple: { namespace: 'Group', object: 'c', relation: 'members', subject_id: 'bob' } },
      ],
    });
    const allowed = async (relation: string, subjectId: string) => (await permission.checkPermission({ namespace: 'File', object: 'doc', relation, subjectId })).data.allowed;
    expect(await allowed('canEdit', 'alice')).toBe(true);
    expect(await allowed('canView', 'alice')).toBe(true);
    expect(await allowed('canEdit', 'eve')).toBe(false);
    expect(await allowed('canView', 'eve')).toBe(false);
    expect(await allowed('canView', 'bob')).toBe(true);
    const limited = await keto(strict, 'GET', '/relation-tuples/check/openapi?namespace=File&object=doc&relation=viewers&subject_id=bob&max-depth=2');
    expect([limited.status, limited.body.error.message, limited.body.error.reason]).toEqual([422, 'The check could not be completed', 'max_depth_exceeded']);
    const batch = await keto(strict, 'POST', '/relation-tuples/batch/check?max-depth=2', { tuples: [{ namespace: 'File', object: 'doc', relation: 'viewers', subject_id: 'bob' }] });
    expect(batch.body).toEqual({ results: [{ allowed: false, error: 'max_depth_exceeded' }] });
    // Expansion keeps subjects of declared types only (a subject id is none), and refuses an undeclared root.
    const undeclared = await keto(strict, 'GET', '/relation-tuples/expand?namespace=File&object=doc&relation=nothing');
    expect([undeclared.status, undeclared.body.error.message]).toEqual([404, 'no relation tuple found']);
    const editors = await permission.expandPermissions({ namespace: 'File', object: 'doc', relation: 'viewers', maxDepth: 2 });
    expect(editors.data).toEqual(node('union', set('File', 'doc', 'viewers'), [leaf(set('Group', 'a', 'members'))]));
    // The same tuples outside strict mode: the tuple under the permit counts.
    await owner.projects.patchProject({ projectId: strict.id, jsonPatch: [{ op: 'replace', path: '/services/permission/config/feature_flags/strict_mode', value: false }] });
    expect(await allowed('canEdit', 'eve')).toBe(true);
  });
});

describe('checks that would run away', () => {
  it('answers cyclic rules with Keto\u2019s 422, deep and wide subject sets within the limits, and other projects meanwhile', async () => {
    const bomb = await projectWithKey(stack, owner, 'Bomb');
    await setRules(
      owner,
      bomb.id,
      `class User implements Namespace {}
class Doc implements Namespace {
  related: { owners: User[]; members: (User | SubjectSet<Doc, "members">)[] }
  permits = {
    a: (ctx: Context) => this.permits.b(ctx) && this.related.owners.includes(ctx.subject),
    b: (ctx: Context) => this.permits.a(ctx) && this.related.owners.includes(ctx.subject),
  }
}`,
    );
    const { relationship } = apis(bomb);
    const chain = Array.from({ length: 30 }, (_, i) => ({
      action: 'insert' as const,
      relation_tuple: { namespace: 'Doc', object: `d${i + 1}`, relation: 'members', subject_set: { namespace: 'Doc', object: `d${i}`, relation: 'members' } },
    }));
    const wide = Array.from({ length: 300 }, (_, i) => ({
      action: 'insert' as const,
      relation_tuple: { namespace: 'Doc', object: 'wide', relation: 'members', subject_set: { namespace: 'Doc', object: `w${i}`, relation: 'members' } },
    }));
    await relationship.patchRelationships({
      relationshipPatch: [
        ...chain,
        ...wide,
        { action: 'insert', relation_tuple: { namespace: 'Doc', object: 'd0', relation: 'members', subject_id: 'ada' } },
        { action: 'insert', relation_tuple: { namespace: 'Doc', object: 'd0', relation: 'owners', subject_id: 'ada' } },
        { action: 'insert', relation_tuple: { namespace: 'Doc', object: 'd1', relation: 'members', subject_set: { namespace: 'Doc', object: 'd30', relation: 'members' } } },
      ],
    });
    const [cyclic, deep, near, broad, elsewhere] = await Promise.all([
      keto(bomb, 'GET', '/relation-tuples/check/openapi?namespace=Doc&object=d0&relation=a&subject_id=ada'),
      keto(bomb, 'GET', '/relation-tuples/check/openapi?namespace=Doc&object=d30&relation=members&subject_id=ada'),
      keto(bomb, 'GET', '/relation-tuples/check/openapi?namespace=Doc&object=d5&relation=members&subject_id=ada'),
      keto(bomb, 'GET', '/relation-tuples/check/openapi?namespace=Doc&object=wide&relation=members&subject_id=ada'),
      keto(docs, 'GET', '/relation-tuples/check/openapi?namespace=File&object=private&relation=view&subject_id=henning'),
    ]);
    expect([cyclic.status, cyclic.body.error.message]).toEqual([422, 'The check could not be completed']);
    expect(cyclic.body.error.reason).toContain('cyclic permit reference');
    // Thirty sets deep is beyond the depth limit (5): not allowed; five deep is within it.
    expect(deep.body).toEqual({ allowed: false });
    expect(near.body).toEqual({ allowed: true });
    expect(broad.body).toEqual({ allowed: false });
    expect(elsewhere.body).toEqual({ allowed: true });
  });
});

describe('who may call the permission API', () => {
  it('takes the project key or a member\u2019s console session, and nothing of another project', async () => {
    const check = '/relation-tuples/check/openapi?namespace=File&object=private&relation=view&subject_id=henning';
    expect((await call(docs.base, 'GET', check)).status).toBe(401);
    expect((await call(docs.base, 'GET', check, { key: other.key })).status).toBe(401);
    expect((await call(docs.base, 'GET', check, { cookie: outsider.cookie })).status).toBe(403);
    expect((await call(docs.base, 'GET', check, { cookie: owner.cookie })).body).toEqual({ allowed: true });
    expect((await call(docs.base, 'POST', '/relation-tuples/check/openapi', { cookie: owner.cookie, body: tuples[0] })).status).toBe(200);
    const write = await call(docs.base, 'PUT', '/admin/relation-tuples', { key: other.key, body: tuples[0] });
    expect(write.status).toBe(401);
    // The other project's tuples stay its own: the same object has no viewers there.
    const { relationship } = apis(other);
    expect((await relationship.getRelationships({ namespace: 'File' })).data.relation_tuples).toEqual([]);
  });

  it('lets a developer read and write, as the project\u2019s roles say', async () => {
    const developer = await newUser(stack, 'Developer');
    await addProjectMember(stack, docs.id, developer.id, 'developer');
    const answer = await call(docs.base, 'PUT', '/admin/relation-tuples', {
      cookie: developer.cookie,
      body: { namespace: 'File', object: 'dev.txt', relation: 'viewers', subject_id: 'dev' },
    });
    expect(answer.status).toBe(201);
  });
});

describe('metered checks on the invoice', () => {
  it('bills the checks a project answered in the period that closes next', async () => {
    const project = await projectWithKey(stack, owner, 'Invoiced');
    const subscribed = await owner.call('POST', '/subscription', { plan: 'Production@0', interval: 'monthly', currency: 'eur', provision_first_project: project.id });
    expect(subscribed.status).toBe(201);
    await setRules(owner, project.id, DOCUMENTS_AND_FOLDERS);
    const { permission } = apis(project);
    for (let i = 0; i < 7; i++) await permission.checkPermission({ namespace: 'File', object: 'private', relation: 'view', subjectId: `user-${i}` });
    await permission.batchCheckPermission({ batchCheckPermissionBody: { tuples: [tuples[0]!, tuples[1]!, tuples[2]!] } });
    const day = dayOf(stack.clock.now());
    const next = dayOf(new Date(stack.clock.now().getTime() + 86_400_000));
    await expect.poll(async () => (await usageBetween(stack.db, [project.id], day, next)).permissionChecks, { timeout: 5000 }).toBe(10);

    const moved = await rawCall(stack.url, null, 'PUT', '/local/clock', { advance_days: 31 });
    expect(moved.status).toBe(200);
    const invoices = await owner.call('GET', `/subscription/${subscribed.body.id}/invoices`);
    expect(invoices.status).toBe(200);
    const [, closed] = invoices.body.buckets as { usage_invoice: { v1: { stripe_invoice_status: string; items: { title: string; quantity: number }[] } } }[];
    expect(closed!.usage_invoice.v1.stripe_invoice_status).toBe('paid');
    expect(closed!.usage_invoice.v1.items.find((item) => item.title === 'Permission checks')).toMatchObject({ quantity: 10 });
  });
});
