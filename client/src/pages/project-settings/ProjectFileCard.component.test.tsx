import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { realBackend, type RealBackend } from '../../test-support/real-backend';
import { ProjectFileCard } from './ProjectFileCard';

// The project file card against the real BFF and a real local stack (see real-backend.tsx): the file the
// browser would save is read back from the Blob handed to the download, and picked again for the import.

let backend: RealBackend;
beforeAll(async () => {
  backend = await realBackend();
}, 60_000);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await backend?.close();
});

const WAIT = { timeout: 15_000 };
const revisionOf = async (projectId: string) => String((await backend.api.projects.get.query({ projectId })).current_revision.id);

describe('ProjectFileCard', () => {
  it('exports the project, shows what the file holds before importing it into a new project, and the new client secret after', async () => {
    const user = userEvent.setup();
    await backend.api.oauth2Clients.create.mutate({ projectId: backend.projectId, client: { client_name: 'Moved app', grant_types: ['client_credentials'] } });
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:project-file';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);

    render(backend.wrap(<ProjectFileCard projectId={backend.projectId} slug="source" currentRevisionId={await revisionOf(backend.projectId)} />));
    await user.click(screen.getByTestId('project-export-identities'));
    await user.click(screen.getByRole('button', { name: 'Export project' }));
    await vi.waitFor(() => expect(saved).not.toBeNull(), WAIT);
    const text = await saved!.text();
    const file = JSON.parse(text) as { format: string; identities?: unknown[]; oauth2_clients: { client_name?: string }[] };
    expect(file.format).toBe('ory-console-project');
    expect(file.identities).toEqual(expect.any(Array));
    expect(file.oauth2_clients.map((c) => c.client_name)).toContain('Moved app');
    cleanup();

    const target = await backend.api.projects.create.mutate({ name: 'Moved', environment: 'dev' });
    render(backend.wrap(<ProjectFileCard projectId={target.id} slug="moved" currentRevisionId={await revisionOf(target.id)} />));
    const picker = screen.getByLabelText('Import project');
    // A file that is not a project file is refused before anything is sent, saying where.
    await user.upload(picker, new File([JSON.stringify({ ...file, version: 7 })], 'old.json', { type: 'application/json' }));
    expect((await screen.findByTestId('project-import-error')).textContent).toBe('version: This project file is of a version the console cannot import; export it again.');

    await user.upload(picker, new File([text], 'source-project.json', { type: 'application/json' }));
    const dialog = await screen.findByTestId('project-import-dialog');
    expect(within(dialog).getByTestId('project-import-summary').textContent).toContain(`${file.oauth2_clients.length} OAuth2 client`);
    for (const secret of within(dialog).queryAllByTestId('project-import-secret')) await user.type(secret, 'given-again');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    const result = await screen.findByTestId('project-import-result', {}, WAIT);
    expect(within(result).getByTestId('project-import-counts').textContent).toContain(`${file.oauth2_clients.length} OAuth2 client`);
    const secret = within(result).getAllByTestId('project-import-client-secret-value')[0]!.textContent!;
    expect(secret.length).toBeGreaterThan(10);
    const moved = (await backend.api.oauth2Clients.list.query({ projectId: target.id, pageSize: 50 })).clients.map((c) => c.client_name);
    expect(moved).toContain('Moved app');
    await user.click(within(result).getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('project-import-result')).toBeNull();
  }, 60_000);
});
