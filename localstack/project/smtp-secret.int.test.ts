import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { addProjectMember, createProject, expectOryError, newUser, startTestStack, type TestUser } from '../test-support/control-plane';
import { findProject, findRevision } from './store';

/*
 * The SMTP password of a project's courier config never leaves the stack on a control-plane read (the
 * full project, the project list, the normalized project), over HTTP with two users; a write that sends
 * back what it read keeps the password, and nobody can point the stored password at another server.
 */

let stack: LocalStack;
let owner: TestUser;
let developer: TestUser;
const PASSWORD = 'Sm7p-pa55word';

beforeAll(async () => {
  stack = await startTestStack();
  [owner, developer] = await Promise.all([newUser(stack, 'Owner'), newUser(stack, 'Developer')]);
});
afterAll(async () => {
  await stack?.close();
});

async function storedUri(projectId: string): Promise<unknown> {
  const project = (await findProject(stack.db, projectId))!;
  const revision = await findRevision(stack.db, project.current_revision_id);
  return (revision.services as { identity: { config: { courier: { smtp: { connection_uri: unknown } } } } }).identity.config.courier.smtp.connection_uri;
}

describe('the SMTP password', () => {
  it('is never answered by a read, and a write of what was read keeps it', async () => {
    const project = await createProject(owner, 'Mailer');
    await addProjectMember(stack, project.id, developer.id, 'developer');
    const set = await owner.call('PATCH', `/projects/${project.id}`, [
      { op: 'add', path: '/services/identity/config/courier', value: { smtp: { connection_uri: `smtp://mailer:${PASSWORD}@127.0.0.1:2525/`, from_name: 'Mailer' } } },
    ]);
    expect(set.status).toBe(200);
    expect(JSON.stringify(set.body)).not.toContain(PASSWORD);

    const reads = [
      await owner.call('GET', `/projects/${project.id}`),
      await developer.call('GET', `/projects/${project.id}`),
      await owner.call('GET', '/projects'),
      await owner.call('GET', `/normalized/projects/${project.id}`),
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain(PASSWORD);
    }
    // The answer says a password is set, as the console shows it, without the password.
    const full = reads[0]!.body;
    expect(full.services.identity.config.courier.smtp.connection_uri).toBe('smtp://mailer:********@127.0.0.1:2525/');

    // Sending back what was read (another field changed) keeps the stored password.
    full.services.identity.config.courier.smtp.from_name = 'Mailer Team';
    const put = await developer.call('PUT', `/projects/${project.id}`, { name: full.name, services: full.services, cors_admin: full.cors_admin, cors_public: full.cors_public });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(PASSWORD);
    expect(await storedUri(project.id)).toBe(`smtp://mailer:${PASSWORD}@127.0.0.1:2525/`);

    // The placeholder for another server is refused: the stored password goes nowhere else.
    const retarget = [{ op: 'replace', path: '/services/identity/config/courier/smtp/connection_uri', value: 'smtp://mailer:********@attacker.example.com:2525/' }];
    expectOryError(await developer.call('PATCH', `/projects/${project.id}`, retarget), 400, /send the SMTP password itself/);
    expect(await storedUri(project.id)).toBe(`smtp://mailer:${PASSWORD}@127.0.0.1:2525/`);
    // A new password replaces it.
    await owner.call('PATCH', `/projects/${project.id}`, [{ op: 'replace', path: '/services/identity/config/courier/smtp/connection_uri', value: 'smtp://mailer:n3w-secret@127.0.0.1:2525/' }]);
    expect(await storedUri(project.id)).toBe('smtp://mailer:n3w-secret@127.0.0.1:2525/');
  });

  it('of the normalized revision is answered redacted and kept when sent back', async () => {
    const project = await createProject(owner, 'Normalized mailer');
    const read = await owner.call('GET', `/normalized/projects/${project.id}`);
    const revision = read.body.current_revision;
    const patched = await owner.call('PATCH', `/normalized/projects/${project.id}/revision/${revision.id}`, [
      { op: 'add', path: '/kratos_courier_smtp_connection_uri', value: `smtps://mailer:${PASSWORD}@mail.example.com:465/` },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body.current_revision.kratos_courier_smtp_connection_uri).toBe('smtps://mailer:********@mail.example.com:465/');
    const { id, project_id, created_at, updated_at, ...fields } = patched.body.current_revision;
    expect([id, project_id, created_at, updated_at].every(Boolean)).toBe(true);
    const put = await owner.call('PUT', `/normalized/projects/${project.id}`, { ...fields, kratos_courier_smtp_from_name: 'Mailer' });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(PASSWORD);
    const stored = await findRevision(stack.db, (await findProject(stack.db, project.id))!.current_revision_id);
    expect(stored.fields.kratos_courier_smtp_connection_uri).toBe(`smtps://mailer:${PASSWORD}@mail.example.com:465/`);
  });
});

describe('the secrets of HTTP delivery and of the SMS channel', () => {
  const API_KEY = 'sms-4pi-k3y-value';
  async function storedCourier(projectId: string): Promise<any> {
    const project = (await findProject(stack.db, projectId))!;
    return (((await findRevision(stack.db, project.current_revision_id)).services as any).identity.config.courier);
  }

  it('are never answered by a read, and a write of what was read keeps them', async () => {
    const project = await createProject(owner, 'Webhook mailer');
    await addProjectMember(stack, project.id, developer.id, 'developer');
    const courier = {
      delivery_strategy: 'http',
      http: { request_config: { url: 'http://127.0.0.1:9/mail', method: 'POST', auth: { type: 'basic_auth', config: { user: 'mailer', password: PASSWORD } } } },
      channels: [{ id: 'sms', type: 'http', request_config: { url: 'http://127.0.0.1:9/sms', method: 'POST', auth: { type: 'api_key', config: { name: 'X-Key', value: API_KEY, in: 'header' } } } }],
    };
    const set = await owner.call('PATCH', `/projects/${project.id}`, [{ op: 'add', path: '/services/identity/config/courier', value: courier }]);
    expect(set.status).toBe(200);
    const reads = [set, await owner.call('GET', `/projects/${project.id}`), await developer.call('GET', `/projects/${project.id}`), await owner.call('GET', '/projects')];
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain(PASSWORD);
      expect(JSON.stringify(read.body)).not.toContain(API_KEY);
    }
    const full = reads[1]!.body;
    const read = full.services.identity.config.courier;
    expect(read.http.request_config.auth.config).toEqual({ user: 'mailer', password: '********' });
    expect(read.channels[0].request_config.auth.config).toEqual({ name: 'X-Key', value: '********', in: 'header' });

    // Sending back what was read (another field changed) keeps both secrets.
    read.http.request_config.method = 'PUT';
    const put = await developer.call('PUT', `/projects/${project.id}`, { name: full.name, services: full.services, cors_admin: full.cors_admin, cors_public: full.cors_public });
    expect(put.status).toBe(200);
    const stored = await storedCourier(project.id);
    expect(stored.http.request_config).toMatchObject({ method: 'PUT', auth: { config: { password: PASSWORD } } });
    expect(stored.channels[0].request_config.auth.config.value).toBe(API_KEY);

    // The placeholder for another URL or key name is refused: the stored secret goes nowhere else.
    const retarget = [{ op: 'replace', path: '/services/identity/config/courier/channels/0/request_config/url', value: 'https://attacker.example.com/sms' }];
    expectOryError(await developer.call('PATCH', `/projects/${project.id}`, [...retarget, { op: 'replace', path: '/services/identity/config/courier/channels/0/request_config/auth/config/value', value: '********' }]), 400, /send the secret itself/);
    const rename = [{ op: 'replace', path: '/services/identity/config/courier/http/request_config/auth/config', value: { user: 'someone-else', password: '********' } }];
    expectOryError(await developer.call('PATCH', `/projects/${project.id}`, rename), 400, /auth\.config\.password carries the redacted secret/);
    expect((await storedCourier(project.id)).http.request_config.auth.config).toEqual({ user: 'mailer', password: PASSWORD });
  });
});
