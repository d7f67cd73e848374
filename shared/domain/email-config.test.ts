import { describe, expect, it } from 'vitest';
import { applyEmailConfig, applySmsConfig, buildConnectionUri, EmailConfigError, parseConnectionUri, readEmailConfig, readSmsConfig } from './email-config';
import { applyTemplate, customTemplateOf } from './email-templates';

describe('email configuration', () => {
  it('reads SMTP settings without ever giving out the password', () => {
    const config = readEmailConfig({ smtp: { connection_uri: 'smtps://mailer:p%40ss@mail.example.com:465/', from_address: 'a@example.com', from_name: 'Acme' } });
    expect(config).toMatchObject({ strategy: 'smtp', smtpHost: 'mail.example.com', smtpPort: 465, smtpUsername: 'mailer', smtpPasswordSet: true, smtpSecurity: 'implicit', fromName: 'Acme' });
    expect(JSON.stringify(config)).not.toContain('p@ss');
    expect(JSON.stringify(config)).not.toContain('p%40ss');
    expect(readEmailConfig({}).strategy).toBe('default');
  });

  it('keeps the stored password, other URI parameters and unknown fields when an edit does not change them', () => {
    const courier = { smtp: { connection_uri: 'smtp://u:secret@old.example.com:587/?skip_ssl_verify=true', headers: { 'X-A': '1' } }, templates: { x: 1 }, other: true };
    const next = applyEmailConfig(courier, { smtpHost: 'new.example.com' });
    const smtp = next.smtp as Record<string, unknown>;
    expect(smtp.connection_uri).toBe('smtp://u:secret@new.example.com:587/?skip_ssl_verify=true');
    expect(smtp.headers).toEqual({ 'X-A': '1' });
    expect(next).toMatchObject({ templates: { x: 1 }, other: true, delivery_strategy: 'smtp' });
    expect((applyEmailConfig(courier, { smtpPassword: 'n3w' }).smtp as Record<string, unknown>).connection_uri).toContain('u:n3w@');
  });

  it('switches to HTTP or back to the default, and says what is missing', () => {
    expect(() => applyEmailConfig({}, { strategy: 'smtp' })).toThrow(EmailConfigError);
    expect(() => applyEmailConfig({}, { strategy: 'http' })).toThrow(/URL/);
    const http = applyEmailConfig({ http: { request_config: { auth: { type: 'api_key' } } } }, { strategy: 'http', httpUrl: 'https://hooks.example.com/mail' });
    expect(http).toMatchObject({ delivery_strategy: 'http', http: { request_config: { url: 'https://hooks.example.com/mail', method: 'POST', auth: { type: 'api_key' } } } });
    const back = applyEmailConfig({ smtp: { connection_uri: 'smtp://h/', from_address: 'a@example.com' } }, { strategy: 'default' });
    expect(back).toEqual({ smtp: { from_address: 'a@example.com' }, delivery_strategy: 'smtp' });
  });

  it('round-trips connection URIs with each security mode', () => {
    for (const uri of ['smtp://h.example.com:25/?disable_starttls=true', 'smtps://u:p@h.example.com:465/', 'smtp://h.example.com/']) {
      expect(buildConnectionUri(parseConnectionUri(uri)!)).toBe(uri);
    }
    expect(parseConnectionUri('http://nope')).toBeNull();
  });

  it('adds, edits and removes the sms channel, keeping other channels and its auth', () => {
    expect(() => applySmsConfig({}, { enabled: true })).toThrow(/URL/);
    const added = applySmsConfig({ channels: [{ id: 'other' }] }, { enabled: true, url: 'https://sms.example.com/send' });
    expect(readSmsConfig(added)).toEqual({ enabled: true, url: 'https://sms.example.com/send', method: 'POST', authType: 'none', basicUser: '', apiKeyName: '', secretSet: false });
    const withAuth = { channels: [{ id: 'sms', type: 'http', request_config: { url: 'https://a.example.com', method: 'POST', auth: { type: 'basic_auth', config: { user: 'u', password: 'p' } } } }] };
    const edited = applySmsConfig(withAuth, { method: 'PUT' });
    expect((edited.channels as unknown[])[0]).toMatchObject({ request_config: { method: 'PUT', auth: { type: 'basic_auth', config: { user: 'u', password: 'p' } } } });
    expect(applySmsConfig(added, { enabled: false }).channels).toEqual([{ id: 'other' }]);
  });

  it('sets the sms channel’s basic or API key auth, keeps a secret that is not sent again, and never shows it', () => {
    const base = applySmsConfig({}, { enabled: true, url: 'http://127.0.0.1:9/sms' });
    expect(() => applySmsConfig(base, { authType: 'basic_auth', basicUser: 'sms' })).toThrow(/password/);
    expect(() => applySmsConfig(base, { authType: 'api_key', secret: 'k' })).toThrow(/header/);
    const basic = applySmsConfig(base, { authType: 'basic_auth', basicUser: 'sms', secret: 'pa55' });
    expect(readSmsConfig(basic)).toMatchObject({ authType: 'basic_auth', basicUser: 'sms', apiKeyName: '', secretSet: true });
    expect(JSON.stringify(readSmsConfig(basic))).not.toContain('pa55');
    const renamed = applySmsConfig(basic, { basicUser: 'other', secret: '' });
    expect((renamed.channels as { request_config: unknown }[])[0]!.request_config).toMatchObject({ auth: { type: 'basic_auth', config: { user: 'other', password: 'pa55' } } });
    // Another kind of auth does not inherit the password as its key.
    expect(() => applySmsConfig(basic, { authType: 'api_key', apiKeyName: 'X-Api-Key' })).toThrow(/API key/);
    const key = applySmsConfig(basic, { authType: 'api_key', apiKeyName: 'X-Api-Key', secret: 'k3y' });
    expect((key.channels as { request_config: unknown }[])[0]!.request_config).toMatchObject({ auth: { type: 'api_key', config: { in: 'header', name: 'X-Api-Key', value: 'k3y' } } });
    expect(readSmsConfig(applySmsConfig(key, { authType: 'none' }))).toMatchObject({ authType: 'none', secretSet: false });
  });

  it('writes and resets a template, leaving the rest of the courier config alone', () => {
    const courier = { smtp: { from_name: 'x' }, templates: { recovery: { valid: { sms: { body: {} } } } } };
    const set = applyTemplate(courier, 'recovery', 'valid', { subject: 'S', body: { html: 'H', plaintext: 'P' } });
    expect(customTemplateOf(set.templates, 'recovery', 'valid')).toEqual({ subject: 'S', body: { html: 'H', plaintext: 'P' } });
    const reset = applyTemplate(set, 'recovery', 'valid', null);
    expect(reset).toEqual(courier);
    expect(applyTemplate({}, 'login_code', 'valid', null)).toEqual({});
  });
});
