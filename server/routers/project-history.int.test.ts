import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser, signUpToProject } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let ownerEmail: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const user = await registerUser(stack.url);
  ownerEmail = user.email;
  owner = callerFor(deps, user.cookie);
});

afterAll(async () => {
  await stack?.close();
});

const PASSWORD_11 = 'Zq9-xw7-Lp4';

describe('projectHistory', () => {
  it('lists every revision with its author, shows what each changed, and a restore brings the old behaviour back as a new revision', async () => {
    const project = await owner.projects.create({ name: 'History', environment: 'dev' });
    const projectId = project.id;
    const first = await owner.projectHistory.list({ projectId });
    expect(first.revisions).toHaveLength(1);
    expect(first.revisions[0]).toMatchObject({ name: 'History', author_email: ownerEmail, current: true });
    const created = first.revisions[0]!.id;
    const creation = await owner.projectHistory.get({ projectId, revisionId: created });
    expect(creation.changes.length).toBeGreaterThan(0);
    expect(creation.changes.every((c) => c.op === 'add')).toBe(true);

    // A 12-character minimum: an 11-character password is refused at sign-up.
    await owner.projectConfig.setAuthentication({ projectId, min_password_length: 12 });
    await expect(signUpToProject(stack.url, project.slug, 'short@example.com', PASSWORD_11)).rejects.toThrow();

    const history = await owner.projectHistory.list({ projectId });
    expect(history.revisions.map((r) => r.current)).toEqual([true, false]);
    const latest = history.revisions[0]!;
    expect(latest.author_email).toBe(ownerEmail);
    const diff = await owner.projectHistory.get({ projectId, revisionId: latest.id });
    expect(diff.changes).toContainEqual(expect.objectContaining({ path: '/services/identity/config/selfservice/methods/password/config/min_password_length', after: 12 }));
    expect(diff.truncated).toBe(false);

    // Restoring the first revision: a new revision, current, and the 11-character password is accepted again.
    const restored = await owner.projectHistory.restore({ projectId, revisionId: created, currentRevisionId: latest.id });
    expect(restored.revisionId).not.toBe(created);
    expect((await owner.projectConfig.get({ projectId })).authentication.min_password_length).toBe(8);
    await expect(signUpToProject(stack.url, project.slug, 'short@example.com', PASSWORD_11)).resolves.toMatchObject({ identityId: expect.any(String) });
    const after = await owner.projectHistory.list({ projectId });
    expect(after.revisions.map((r) => r.id)).toEqual([restored.revisionId, latest.id, created]);
    const undo = await owner.projectHistory.get({ projectId, revisionId: restored.revisionId });
    expect(undo.changes).toContainEqual(expect.objectContaining({ op: 'remove', before: expect.anything() }));
  });

  it('refuses a restore onto a configuration that changed since the user looked, and changes nothing', async () => {
    const { id: projectId } = await owner.projects.create({ name: 'Stale', environment: 'dev' });
    const [original] = (await owner.projectHistory.list({ projectId })).revisions;
    await owner.projects.update({ projectId, name: 'Stale, renamed' });
    const seen = (await owner.projectHistory.list({ projectId })).revisions[0]!;
    await owner.projects.update({ projectId, name: 'Stale, renamed again' });

    const stale = await rejection(owner.projectHistory.restore({ projectId, revisionId: original!.id, currentRevisionId: seen.id }));
    expect(stale.code).toBe('CONFLICT');
    expect(stale.message).toMatch(/not the current revision/);
    const now = await owner.projectHistory.list({ projectId });
    expect(now.revisions).toHaveLength(3);
    expect(now.revisions[0]!.name).toBe('Stale, renamed again');

    const current = now.revisions[0]!;
    const same = await rejection(owner.projectHistory.restore({ projectId, revisionId: current.id, currentRevisionId: current.id }));
    expect(same.code).toBe('BAD_REQUEST');
    expect(same.message).toBe('This revision is already the current configuration: there is nothing to restore.');
  });

  it('never shows a stored secret: the SMTP password reads redacted in the changes, and a restore keeps the one it had', async () => {
    const { id: projectId } = await owner.projects.create({ name: 'Secret', environment: 'dev' });
    const password = 'history-smtp-password-93f1';
    await owner.messaging.setEmailConfig({ projectId, strategy: 'smtp', smtpHost: '127.0.0.1', smtpPort: 1, smtpUsername: 'mailer', smtpPassword: password, fromAddress: 'no-reply@mailer.example.com', fromName: 'Mailer' });
    const withSmtp = (await owner.projectHistory.list({ projectId })).revisions[0]!;
    await owner.messaging.setEmailConfig({ projectId, smtpPassword: 'a-newer-password-77a2' });
    const [latest] = (await owner.projectHistory.list({ projectId })).revisions;
    for (const revision of [withSmtp, latest!]) {
      const shown = JSON.stringify(await owner.projectHistory.get({ projectId, revisionId: revision.id }));
      expect(shown).not.toContain(password);
      expect(shown).not.toContain('a-newer-password-77a2');
    }
    expect(JSON.stringify(await owner.projectHistory.get({ projectId, revisionId: withSmtp.id }))).toContain('smtp://mailer:********@127.0.0.1:1/');
    await owner.projectHistory.restore({ projectId, revisionId: withSmtp.id, currentRevisionId: latest!.id });
    expect((await owner.messaging.emailConfig({ projectId })).smtpPasswordSet).toBe(true);
  });

  it('pages through a long history, newest first, each revision once', async () => {
    const { id: projectId } = await owner.projects.create({ name: 'Long', environment: 'dev' });
    for (let i = 1; i <= 27; i += 1) await owner.projects.update({ projectId, name: `Long ${i}` });
    const first = await owner.projectHistory.list({ projectId });
    expect(first.revisions).toHaveLength(25);
    expect(first.revisions[0]!.name).toBe('Long 27');
    const second = await owner.projectHistory.list({ projectId, pageToken: first.nextPageToken! });
    expect(second.revisions.map((r) => r.name)).toEqual(['Long 2', 'Long 1', 'Long']);
    expect(second.nextPageToken).toBeNull();
    const bad = await rejection(owner.projectHistory.list({ projectId, pageToken: 'nonsense' }));
    expect(bad.code).toBe('BAD_REQUEST');
  });

  it('exports the configuration with every secret redacted, and imports it as a new revision only with each secret given again', async () => {
    const source = await owner.projects.create({ name: 'Exported', environment: 'dev' });
    const password = 'export-smtp-password-4e2a';
    await owner.messaging.setEmailConfig({ projectId: source.id, strategy: 'smtp', smtpHost: '127.0.0.1', smtpPort: 1, smtpUsername: 'mailer', smtpPassword: password, fromAddress: 'no-reply@mailer.example.com', fromName: 'Mailer' });
    await owner.projectConfig.setAuthentication({ projectId: source.id, min_password_length: 12 });
    const file = await owner.projectHistory.export({ projectId: source.id });
    expect(file).toMatchObject({ format: 'ory-console-project-config', version: 1, name: 'Exported' });
    expect(JSON.stringify(file)).not.toContain(password);
    expect(file.secrets).toEqual(['/identity/config/courier/smtp/connection_uri']);

    const target = await owner.projects.create({ name: 'Target', environment: 'dev' });
    const [current] = (await owner.projectHistory.list({ projectId: target.id })).revisions;
    // Without the secret: refused, naming where it goes, and nothing written.
    const missing = await rejection(owner.projectHistory.import({ projectId: target.id, currentRevisionId: current!.id, file }));
    expect(missing.code).toBe('BAD_REQUEST');
    expect(missing.message).toBe('Give the secret the export left out at /identity/config/courier/smtp/connection_uri.');
    expect((await owner.projectHistory.list({ projectId: target.id })).revisions).toHaveLength(1);
    // From a revision that is no longer current: CONFLICT.
    await owner.projects.update({ projectId: target.id, name: 'Target, renamed' });
    const secrets = { '/identity/config/courier/smtp/connection_uri': password };
    expect((await rejection(owner.projectHistory.import({ projectId: target.id, currentRevisionId: current!.id, file, secrets }))).code).toBe('CONFLICT');

    const [now] = (await owner.projectHistory.list({ projectId: target.id })).revisions;
    const imported = await owner.projectHistory.import({ projectId: target.id, currentRevisionId: now!.id, file, secrets });
    const after = await owner.projectHistory.list({ projectId: target.id });
    expect(after.revisions[0]).toMatchObject({ id: imported.revisionId, name: 'Exported', current: true });
    expect((await owner.projectConfig.get({ projectId: target.id })).authentication.min_password_length).toBe(12);
    expect((await owner.messaging.emailConfig({ projectId: target.id })).smtpPasswordSet).toBe(true);
    // Round trip: the target exports what the source did.
    const again = await owner.projectHistory.export({ projectId: target.id });
    expect(again.services).toEqual(file.services);
    expect(JSON.stringify(again)).not.toContain(password);
    // A file of another kind is refused before anything is sent.
    const foreign = await rejection(owner.projectHistory.import({ projectId: target.id, currentRevisionId: imported.revisionId, file: { ...file, format: 'something-else' } as never }));
    expect(foreign.code).toBe('BAD_REQUEST');
  });

  it('tells another user nothing: not the list, not a revision, no restore', async () => {
    const { id: projectId } = await owner.projects.create({ name: 'Private', environment: 'dev' });
    const [rev] = (await owner.projectHistory.list({ projectId })).revisions;
    const stranger = callerFor(deps, (await registerUser(stack.url)).cookie);
    for (const attempt of [
      () => stranger.projectHistory.list({ projectId }),
      () => stranger.projectHistory.get({ projectId, revisionId: rev!.id }),
      () => stranger.projectHistory.restore({ projectId, revisionId: rev!.id, currentRevisionId: rev!.id }),
      () => stranger.projectHistory.export({ projectId }),
      () => stranger.projectHistory.import({ projectId, currentRevisionId: rev!.id, file: { format: 'ory-console-project-config', version: 1, name: 'Hijacked', services: {} } }),
    ]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
    // A revision of another project is not found through this one.
    const { id: mine } = await stranger.projects.create({ name: 'Mine', environment: 'dev' });
    const missing = await rejection(stranger.projectHistory.get({ projectId: mine, revisionId: rev!.id }));
    expect(missing.code).toBe('NOT_FOUND');
  });
});
