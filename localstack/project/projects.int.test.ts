import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import {
  createProject,
  expectOryError,
  failure,
  newUser,
  rawCall,
  startTestStack,
  type TestUser,
} from '../test-support/control-plane';

let stack: LocalStack;
let alice: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  alice = await newUser(stack, 'Alice');
});
afterAll(async () => {
  await stack?.close();
});

describe('projects (full configuration form)', () => {
  it('creates a project in the shape @ory/client reads and lists it', async () => {
    const created = await alice.projects.createProject({ createProjectBody: { name: 'Shop', environment: 'dev' } });
    expect(created.status).toBe(201);
    const project = created.data;
    expect(project).toMatchObject({
      name: 'Shop',
      environment: 'dev',
      state: 'running',
      home_region: 'eu-central',
      workspace_id: null,
      organizations: [],
      services: { identity: { config: {} }, oauth2: { config: {} }, permission: { config: {} } },
      cors_admin: { enabled: false, origins: [] },
      cors_public: { enabled: false, origins: [] },
    });
    expect(project.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(project.revision_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(project.slug).toMatch(/^[a-z]+-[a-z]+-[a-z0-9]{8}$/);

    const list = await alice.projects.listProjects();
    const item = list.data.find((p) => p.id === project.id);
    expect(item).toMatchObject({ name: 'Shop', slug: project.slug, environment: 'dev', state: 'running' });
    expect(item?.hosts).toEqual([`${project.slug}.projects.oryapis.com`]);
    expect(new Date(item!.created_at).toISOString()).toBe(item!.created_at);

    const got = await alice.projects.getProject({ projectId: project.id });
    expect(got.data).toEqual(project);
  });

  it('takes home_region and answers 400 naming every bad field', async () => {
    const created = await alice.projects.createProject({
      createProjectBody: { name: 'US', environment: 'stage', home_region: 'us-east' },
    });
    expect(created.data.home_region).toBe('us-east');

    const bad = await failure(
      alice.projects.createProject({ createProjectBody: { name: '', environment: 'live' as never } }),
    );
    expectOryError(bad, 400, /name.*environment/s);
    expectOryError(await alice.call('POST', '/projects', { environment: 'dev' }), 400, /name/);
    expectOryError(await alice.call('POST', '/projects', '{not json'), 400);
    const badWorkspace = { name: 'x', environment: 'dev', workspace_id: 'nope' };
    expectOryError(await alice.call('POST', '/projects', badWorkspace), 400, /workspace_id/);
    expectOryError(await alice.call('GET', '/projects/not-a-uuid'), 400, /project_id/);
  });

  it('answers 401 without a session and 404 for a project that does not exist', async () => {
    expectOryError(await rawCall(stack.url, null, 'GET', '/projects'), 401);
    expectOryError(await rawCall(stack.url, null, 'POST', '/projects', { name: 'x', environment: 'dev' }), 401);
    const missing = await failure(alice.projects.getProject({ projectId: '00000000-0000-4000-8000-000000000000' }));
    expectOryError(missing, 404);
  });

  it('replaces the configuration with setProject and makes a new revision', async () => {
    const project = await createProject(alice, 'Cfg');
    const updated = await alice.projects.setProject({
      projectId: project.id,
      setProject: {
        name: 'Cfg 2',
        services: { identity: { config: { selfservice: { default_browser_return_url: 'https://a.example' } } } },
        cors_admin: { enabled: true, origins: ['https://admin.example'] },
        cors_public: { enabled: false, origins: [] },
        organizations: [],
      },
    });
    expect(updated.data.warnings).toEqual([]);
    expect(updated.data.project.name).toBe('Cfg 2');
    expect(updated.data.project.revision_id).not.toBe(project.revision_id);
    expect(updated.data.project.services.identity?.config).toEqual({
      selfservice: { default_browser_return_url: 'https://a.example' },
    });
    expect(updated.data.project.services.oauth2).toEqual({ config: {} });
    expect(updated.data.project.cors_admin).toEqual({ enabled: true, origins: ['https://admin.example'] });

    const normalized = await alice.call('GET', `/normalized/projects/${project.id}`);
    expect(normalized.body.current_revision).toMatchObject({
      name: 'Cfg 2',
      serve_admin_cors_enabled: true,
      serve_admin_cors_allowed_origins: ['https://admin.example'],
    });

    const bad = await alice.call('PUT', `/projects/${project.id}`, { name: 'x', services: { nope: {} } });
    expectOryError(bad, 400, /services/);
  });

  it('patches name and services with JSON patch (add, replace, remove)', async () => {
    const project = await createProject(alice, 'Patch');
    const patched = await alice.projects.patchProject({
      projectId: project.id,
      jsonPatch: [
        { op: 'replace', path: '/name', value: 'Patched' },
        { op: 'add', path: '/services/identity/config/courier', value: { smtp: { from_name: 'Shop' } } },
        { op: 'add', path: '/services/oauth2/config/ttl', value: { access_token: '1h' } },
        { op: 'remove', path: '/services/oauth2/config/ttl' },
      ],
    });
    expect(patched.data.project.name).toBe('Patched');
    expect(patched.data.project.services.identity?.config).toEqual({ courier: { smtp: { from_name: 'Shop' } } });
    expect(patched.data.project.services.oauth2?.config).toEqual({});

    const outside = await failure(
      alice.projects.patchProject({ projectId: project.id, jsonPatch: [{ op: 'replace', path: '/slug', value: 'x' }] }),
    );
    expectOryError(outside, 400, /slug/);
    const missing = await failure(
      alice.projects.patchProject({
        projectId: project.id,
        jsonPatch: [{ op: 'remove', path: '/services/identity/config/nope' }],
      }),
    );
    expectOryError(missing, 400, /does not exist/);
    const emptyName = await failure(
      alice.projects.patchProject({ projectId: project.id, jsonPatch: [{ op: 'replace', path: '/name', value: '' }] }),
    );
    expectOryError(emptyName, 400, /name/);
  });

  it('patches with a revision id and answers 409 when the revision is stale', async () => {
    const project = await createProject(alice, 'Rev');
    const first = await alice.projects.patchProjectWithRevision({
      projectId: project.id,
      revisionId: project.revision_id,
      jsonPatch: [{ op: 'replace', path: '/name', value: 'Rev 2' }],
    });
    expect(first.data.project.name).toBe('Rev 2');
    const stale = await failure(
      alice.projects.patchProjectWithRevision({
        projectId: project.id,
        revisionId: project.revision_id,
        jsonPatch: [{ op: 'replace', path: '/name', value: 'Rev 3' }],
      }),
    );
    expectOryError(stale, 409, /revision/);
    expect((await alice.projects.getProject({ projectId: project.id })).data.name).toBe('Rev 2');
  });

  it('changes the environment', async () => {
    const project = await createProject(alice, 'Env');
    // On Develop a project cannot go to production; its own subscription pays for one.
    const refused = await alice.call('PUT', `/projects/${project.id}/environment`, { environment: 'prod' });
    expectOryError(refused, 403, /Develop plan does not include production projects/);
    expect(refused.body.error).toMatchObject({ id: 'feature_not_available', details: { feature: 'production_projects' } });
    await alice.call('POST', '/subscription', { plan: 'Production@0', interval: 'monthly', provision_first_project: project.id });
    const changed = await alice.call('PUT', `/projects/${project.id}/environment`, { environment: 'prod' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: project.id, environment: 'prod', name: 'Env' });
    const listed = (await alice.projects.listProjects()).data.find((p) => p.id === project.id);
    expect(listed?.environment).toBe('prod');
    const badEnvironment = await alice.call('PUT', `/projects/${project.id}/environment`, { environment: 'qa' });
    expectOryError(badEnvironment, 400, /environment/);
  });

  it('purges a project: 204, then 404 everywhere and gone from the list', async () => {
    const project = await createProject(alice, 'Gone');
    const purged = await alice.projects.purgeProject({ projectId: project.id });
    expect(purged.status).toBe(204);
    expectOryError(await failure(alice.projects.getProject({ projectId: project.id })), 404);
    expectOryError(await failure(alice.projects.purgeProject({ projectId: project.id })), 404);
    expect((await alice.projects.listProjects()).data.map((p) => p.id)).not.toContain(project.id);
  });
});
