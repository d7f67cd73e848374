import { describe, expect, it } from 'vitest';
import { OryError } from '../kernel/errors';
import { redactConnectionUri, redactServices, restoreConnectionUri } from './smtp-secret';

describe('the SMTP password in a connection URI', () => {
  it('is replaced by the placeholder, and nothing else is', () => {
    expect(redactConnectionUri('smtps://mailer:p%40ss@mail.example.com:465/?skip_ssl_verify=true')).toBe('smtps://mailer:********@mail.example.com:465/?skip_ssl_verify=true');
    expect(redactConnectionUri('smtp://mailer@mail.example.com/')).toBe('smtp://mailer@mail.example.com/');
    expect(redactConnectionUri('http://user:pw@example.com/')).toBe('http://user:pw@example.com/');
    expect(redactConnectionUri('not a uri')).toBe('not a uri');
    expect(redactConnectionUri(undefined)).toBeUndefined();
  });

  it('comes back from the stored URI for the same server and user only', () => {
    const stored = 'smtp://mailer:p%40ss@mail.example.com:587/';
    expect(restoreConnectionUri('smtp://mailer:********@mail.example.com:587/?local_name=x', stored)).toBe('smtp://mailer:p%40ss@mail.example.com:587/?local_name=x');
    expect(restoreConnectionUri('smtp://mailer:new@mail.example.com:587/', stored)).toBe('smtp://mailer:new@mail.example.com:587/');
    for (const other of ['smtp://mailer:********@evil.example.com:587/', 'smtp://root:********@mail.example.com:587/', 'smtps://mailer:********@mail.example.com:587/', 'smtp://mailer:********@mail.example.com:25/']) {
      expect(() => restoreConnectionUri(other, stored)).toThrow(OryError);
    }
    expect(() => restoreConnectionUri('smtp://mailer:********@mail.example.com:587/', undefined)).toThrow(/send the SMTP password itself/);
  });

  it('is redacted in a copy of the services, leaving the stored object alone', () => {
    const services = { identity: { config: { courier: { smtp: { connection_uri: 'smtp://u:secret@h/', from_name: 'X' } } } }, oauth2: { config: {} } };
    const redacted = redactServices(services);
    expect(JSON.stringify(redacted)).not.toContain('secret');
    expect(services.identity.config.courier.smtp.connection_uri).toBe('smtp://u:secret@h/');
    expect(redactServices({ identity: { config: {} } })).toEqual({ identity: { config: {} } });
  });
});
