import { describe, expect, it } from 'vitest';
import { defaultPayload } from './http';
import { locate, type Lookup } from './network';
import { deliveryTarget, targetName } from './target';
import { kratosTemplateData } from './templates';

describe('where the courier delivers a message', () => {
  it('goes to the local mailbox when the project has no server of its own', () => {
    expect(deliveryTarget({}, 'email')).toEqual({ kind: 'mailbox' });
    expect(deliveryTarget({ courier: { smtp: { from_address: 'a@example.com' } } }, 'email')).toEqual({ kind: 'mailbox' });
    expect(deliveryTarget({}, 'phone')).toEqual({ kind: 'mailbox' });
  });

  it('reads the connection URI as Kratos does: STARTTLS unless disabled, implicit TLS for smtps, default ports', () => {
    const smtp = { connection_uri: 'smtp://me%40x:p%3Ass@mail.example.com:2525/?skip_ssl_verify=true&server_name=mx.example.com', from_address: 'hi@example.com', from_name: 'Hi', headers: { 'X-Tag': 'a' } };
    expect(deliveryTarget({ courier: { smtp } }, 'email')).toEqual({
      kind: 'smtp',
      host: 'mail.example.com',
      port: 2525,
      implicitTls: false,
      startTls: true,
      skipVerify: true,
      serverName: 'mx.example.com',
      user: 'me@x',
      password: 'p:ss',
      from: { address: 'hi@example.com', name: 'Hi' },
      headers: { 'X-Tag': 'a' },
      localName: 'localhost',
    });
    expect(deliveryTarget({ courier: { smtp: { connection_uri: 'smtp://mail.example.com/?disable_starttls=true' } } }, 'email')).toMatchObject({
      port: 587,
      startTls: false,
      implicitTls: false,
      serverName: 'mail.example.com',
      from: { address: 'no-reply@ory.kratos.sh', name: '' },
    });
    expect(deliveryTarget({ courier: { smtp: { connection_uri: 'smtps://mail.example.com/' } } }, 'email')).toMatchObject({ port: 465, implicitTls: true, startTls: false });
    expect(deliveryTarget({ courier: { smtp: { connection_uri: 'nonsense' } } }, 'email')).toMatchObject({ kind: 'invalid' });
    expect(deliveryTarget({ courier: { smtp: { connection_uri: 'http://mail.example.com/' } } }, 'email')).toMatchObject({ kind: 'invalid' });
  });

  it('reads the HTTP request config with the http strategy, and the sms channel for text messages', () => {
    const courier = {
      delivery_strategy: 'http',
      http: { request_config: { url: 'https://hooks.example.com/mail', auth: { type: 'basic_auth', config: { user: 'u', password: 'p' } } } },
      channels: [{ id: 'sms', type: 'http', request_config: { url: 'http://[::1]:9/sms', method: 'put', auth: { type: 'api_key', config: { name: 'X-Key', value: 'k', in: 'cookie' } } } }],
    };
    expect(deliveryTarget({ courier }, 'email')).toMatchObject({ kind: 'http', host: 'hooks.example.com', port: 443, method: 'POST', auth: { type: 'basic_auth', user: 'u', password: 'p' } });
    const sms = deliveryTarget({ courier }, 'phone');
    expect(sms).toMatchObject({ kind: 'sms', host: '::1', port: 9, method: 'PUT', auth: { type: 'api_key', name: 'X-Key', value: 'k', in: 'cookie' } });
    expect(targetName(sms as Parameters<typeof targetName>[0])).toBe('SMS endpoint at [::1]:9');
    expect(deliveryTarget({ courier: { ...courier, http: { request_config: { url: 'https://h.example.com', auth: { type: 'oauth' } } } } }, 'email')).toEqual({
      kind: 'invalid',
      reason: 'The HTTP delivery’s auth type must be basic_auth or api_key.',
    });
  });
});

/** A resolver that answers `addresses` for every name and counts its calls. */
function resolver(addresses: string[]) {
  const asked: string[] = [];
  const lookup: Lookup = async (host) => {
    asked.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

describe('where a project’s own server is', () => {
  it('is elsewhere when any address of its name is off this machine', async () => {
    expect(await locate('mail.example.com', resolver(['203.0.113.7']).lookup)).toEqual({ where: 'elsewhere' });
    expect(await locate('mixed.example.com', resolver(['127.0.0.1', '198.51.100.2']).lookup)).toEqual({ where: 'elsewhere' });
    expect(await locate('0.0.0.0')).toEqual({ where: 'elsewhere' });
  });

  it('is on loopback with one address to connect to, IPv4 first, a literal address not looked up', async () => {
    const { lookup, asked } = resolver(['::1', '127.0.0.1']);
    expect(await locate('localhost', lookup)).toEqual({ where: 'loopback', address: '127.0.0.1', family: 4 });
    expect(await locate('::1', lookup)).toEqual({ where: 'loopback', address: '::1', family: 6 });
    expect(asked).toEqual(['localhost']);
  });

  it('rejects a name that does not resolve', async () => {
    const failing: Lookup = async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' }));
    await expect(locate('nowhere.invalid', failing)).rejects.toThrow('ENOTFOUND');
  });
});

describe('what an HTTP delivery carries', () => {
  it('is Kratos’ default payload, with the template data in Kratos’ JSON names', () => {
    const data = kratosTemplateData({ To: 'a@example.com', RecoveryCode: '123456', RequestURLDomain: 'example.com', ExpiresInMinutes: 15, Identity: { traits: { FirstName: 'A' } } });
    expect(data).toEqual({ to: 'a@example.com', recovery_code: '123456', request_url_domain: 'example.com', expires_in_minutes: 15, identity: { traits: { FirstName: 'A' } } });
    expect(defaultPayload({ recipient: 'a@example.com', template_type: 'recovery_code_valid', subject: 'S', body: 'B 123456', template_data: data })).toEqual({
      recipient: 'a@example.com',
      template_type: 'recovery_code_valid',
      to: 'a@example.com',
      recovery_code: '123456',
      recovery_url: null,
      verification_url: null,
      verification_code: null,
      subject: 'S',
      body: 'B 123456',
    });
  });
});
