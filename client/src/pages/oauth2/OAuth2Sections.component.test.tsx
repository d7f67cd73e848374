import { generateKeyPairSync } from 'node:crypto';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { realBackend, type RealBackend } from '../../test-support/real-backend';
import { ClientLifespans, RotatedSecrets } from './ClientExtras';
import { ConsentSessionsSection } from './ConsentSessionsSection';
import { TrustedIssuersSection } from './TrustedIssuersSection';

// The OAuth2 sections of the console against the real BFF and a real local stack (see real-backend.tsx), one
// backend for the file: the client dialog's own lifespans and rotated secrets, a user's consent sessions (given
// through real authorization-code flows accepted with Hydra's admin API), and the trusted JWT issuers.

let backend: RealBackend;
beforeAll(async () => {
  backend = await realBackend();
  await backend.seedConsent('reader-1', 'Reading app');
  await backend.seedConsent('reader-1', 'Notes app');
}, 60_000);
afterEach(cleanup);
afterAll(async () => {
  await backend?.close();
});

const WAIT = { timeout: 10_000 };

describe('TrustedIssuersSection', () => {
  it('says what to fix before anything is sent, trusts an issuer with its key, and stops trusting it after confirmation', async () => {
    const user = userEvent.setup();
    render(backend.wrap(<TrustedIssuersSection projectId={backend.projectId} />));
    expect(await screen.findByText('No trusted issuers', {}, WAIT)).toBeTruthy();

    await user.type(screen.getByTestId('oauth2-issuer-issuer'), 'not a url');
    await user.type(screen.getByTestId('oauth2-issuer-subject'), 'someone');
    await user.click(screen.getByTestId('oauth2-issuer-any-subject'));
    await user.click(screen.getByRole('button', { name: 'Trust issuer' }));
    expect(await screen.findByText('Enter the issuer URL, such as https://jwt-idp.example.com')).toBeTruthy();
    expect(screen.getByText('Name one subject, or allow any subject (not both)')).toBeTruthy();
    expect(screen.getByText('Say until when the issuer is trusted')).toBeTruthy();

    const key = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid: 'partner-key', alg: 'ES256', use: 'sig' };
    await user.clear(screen.getByTestId('oauth2-issuer-issuer'));
    await user.type(screen.getByTestId('oauth2-issuer-issuer'), 'https://partner.example.com');
    await user.clear(screen.getByTestId('oauth2-issuer-subject'));
    await user.type(screen.getByTestId('oauth2-issuer-scope'), 'reports:read reports:write');
    // Typed braces are key descriptors to user-event: paste the key.
    await user.click(screen.getByTestId('oauth2-issuer-jwk'));
    await user.paste(JSON.stringify(key));
    await user.type(screen.getByTestId('oauth2-issuer-expires'), '2099-01-31');
    await user.click(screen.getByRole('button', { name: 'Trust issuer' }));
    const table = await screen.findByTestId('oauth2-issuers-table', {}, WAIT);
    const row = within(table).getByText('https://partner.example.com').closest('tr')!;
    expect(row.textContent).toContain('Any subject');
    expect(row.textContent).toContain('reports:read reports:write');
    expect(row.textContent).toContain('partner-key');

    await user.click(screen.getByTestId('oauth2-issuer-delete-https://partner.example.com'));
    const dialog = screen.getByTestId('delete-oauth2-issuer-dialog');
    expect(dialog.textContent).toContain('JWTs from "https://partner.example.com" are refused from now on');
    await user.click(within(dialog).getByRole('button', { name: 'Delete trust' }));
    expect(await screen.findByText('No trusted issuers', {}, WAIT)).toBeTruthy();
    expect((await backend.api.oauth2TrustedIssuers.list.query({ projectId: backend.projectId })).issuers).toEqual([]);
  });
});

describe('ConsentSessionsSection', () => {
  it("lists a subject's consents with their scopes, revokes one after confirmation, then every app", async () => {
    const user = userEvent.setup();
    render(backend.wrap(<ConsentSessionsSection projectId={backend.projectId} />));
    expect((screen.getByTestId('oauth2-consent-lookup-submit') as HTMLButtonElement).disabled).toBe(true);

    await user.type(screen.getByTestId('oauth2-consent-subject'), 'nobody-at-all');
    await user.click(screen.getByTestId('oauth2-consent-lookup-submit'));
    expect(await screen.findByText('No consents for this subject', {}, WAIT)).toBeTruthy();

    await user.clear(screen.getByTestId('oauth2-consent-subject'));
    await user.type(screen.getByTestId('oauth2-consent-subject'), 'reader-1');
    await user.click(screen.getByTestId('oauth2-consent-lookup-submit'));
    const table = await screen.findByTestId('oauth2-consent-table', {}, WAIT);
    const reading = within(table).getByText('Reading app').closest('tr')!;
    expect(reading.textContent).toContain('openid email');
    expect(within(table).getByText('Notes app')).toBeTruthy();

    await user.click(screen.getByTestId('oauth2-consent-revoke-Reading app'));
    const dialog = screen.getByTestId('revoke-oauth2-consent-dialog');
    expect(dialog.textContent).toContain('"Reading app" can no longer act for reader-1');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await screen.findByText('Notes app', {}, WAIT);
    await expect.poll(() => screen.queryByText('Reading app'), WAIT).toBeNull();

    await user.click(screen.getByTestId('oauth2-consent-revoke-all'));
    expect(screen.getByTestId('revoke-oauth2-consent-dialog').textContent).toContain('Every app loses its access to reader-1');
    await user.click(within(screen.getByTestId('revoke-oauth2-consent-dialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No consents for this subject', {}, WAIT)).toBeTruthy();
    expect((await backend.api.oauth2Sessions.listConsent.query({ projectId: backend.projectId, subject: 'reader-1' })).sessions).toEqual([]);
  });
});

const newClient = () =>
  backend.api.oauth2Clients.create.mutate({ projectId: backend.projectId, client: { client_name: 'Worker', grant_types: ['client_credentials'] } });

describe("a client's lifespans", () => {
  it('refuses what is not a duration, saves one grant and token lifespan, and leaves the others to the project', async () => {
    const client = await newClient();
    const onSaved = vi.fn();
    const user = userEvent.setup();
    render(backend.wrap(<ClientLifespans projectId={backend.projectId} client={client} onSaved={onSaved} />));
    const field = screen.getByTestId('oauth2-client-lifespan-client_credentials_grant_access_token_lifespan');
    expect(screen.getByText('Client credentials grant')).toBeTruthy();
    await user.type(field, 'five minutes');
    await user.click(screen.getByRole('button', { name: 'Save lifespans' }));
    expect(await screen.findByText('Write a duration such as 1h, 30m or 1h30m')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, '2m');
    await user.click(screen.getByRole('button', { name: 'Save lifespans' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1), WAIT);
    expect(onSaved.mock.calls[0]![0]).toMatchObject({ client_credentials_grant_access_token_lifespan: '2m', authorization_code_grant_access_token_lifespan: '' });
    const saved = await backend.api.oauth2Clients.get.query({ projectId: backend.projectId, clientId: client.client_id! });
    expect(saved.client_credentials_grant_access_token_lifespan).toBe('2m');
    expect(saved.authorization_code_grant_access_token_lifespan).toBeUndefined();
  });
});

describe("a client's rotated secrets", () => {
  it('keep working after a rotation until they are deleted after confirmation; the new secret keeps working', async () => {
    const client = await newClient();
    const rotated = await backend.api.oauth2Clients.rotateSecret.mutate({ projectId: backend.projectId, clientId: client.client_id! });
    expect(await backend.tokenStatus(client.client_id!, client.client_secret!)).toBe(200);
    const user = userEvent.setup();
    render(backend.wrap(<RotatedSecrets projectId={backend.projectId} client={client} />));
    await user.click(screen.getByTestId('oauth2-client-delete-rotated'));
    const dialog = screen.getByTestId('delete-oauth2-rotated-dialog');
    expect(dialog.textContent).toContain('Every secret of "Worker" that a rotation replaced stops working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Delete old secrets' }));
    await vi.waitFor(() => expect(screen.queryByTestId('delete-oauth2-rotated-dialog')).toBeNull(), WAIT);
    expect(await backend.tokenStatus(client.client_id!, client.client_secret!)).toBe(401);
    expect(await backend.tokenStatus(client.client_id!, rotated.client_secret!)).toBe(200);
  });
});
