import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { deliveryTarget, reach } from './courier-delivery';

describe('where the courier delivers a message', () => {
  it('goes to the local mailbox when the project has no server of its own', () => {
    expect(deliveryTarget({}, 'email')).toEqual({ kind: 'mailbox' });
    expect(deliveryTarget({ courier: { smtp: { from_address: 'a@example.com' } } }, 'email')).toEqual({ kind: 'mailbox' });
    expect(deliveryTarget({}, 'phone')).toEqual({ kind: 'mailbox' });
  });

  it('tries the SMTP server of the connection URI, with the default port of its scheme', () => {
    expect(deliveryTarget({ courier: { smtp: { connection_uri: 'smtp://u:p@mail.example.com:2525/' } } }, 'email')).toEqual({ kind: 'smtp', host: 'mail.example.com', port: 2525 });
    expect(deliveryTarget({ courier: { smtp: { connection_uri: 'smtps://mail.example.com/' } } }, 'email')).toEqual({ kind: 'smtp', host: 'mail.example.com', port: 465 });
    expect(deliveryTarget({ courier: { smtp: { connection_uri: 'nonsense' } } }, 'email')).toMatchObject({ kind: 'invalid' });
  });

  it('tries the HTTP endpoint with the http strategy, and the sms channel for text messages', () => {
    const courier = {
      delivery_strategy: 'http',
      http: { request_config: { url: 'https://hooks.example.com/mail' } },
      channels: [{ id: 'sms', type: 'http', request_config: { url: 'http://[::1]:9/sms' } }],
    };
    expect(deliveryTarget({ courier }, 'email')).toEqual({ kind: 'http', host: 'hooks.example.com', port: 443 });
    expect(deliveryTarget({ courier }, 'phone')).toEqual({ kind: 'sms', host: '::1', port: 9 });
  });
});

/** A resolver that answers `addresses` for every name, and a connect that only counts its calls. */
function network(addresses: string[]) {
  const connects: string[] = [];
  const fakeLookup = (async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) as unknown as typeof lookup;
  const fakeConnect = ((opts: { host: string; port: number }) => {
    connects.push(`${opts.host}:${opts.port}`);
    return connect({ host: '127.0.0.1', port: 1 });
  }) as unknown as typeof connect;
  return { net: { lookup: fakeLookup, connect: fakeConnect }, connects };
}

describe('trying a project’s own mail server', () => {
  it('never contacts a server off this machine', async () => {
    const { net, connects } = network(['203.0.113.7']);
    await expect(reach({ kind: 'smtp', host: 'mail.example.com', port: 25 }, net)).resolves.toBeUndefined();
    expect(connects).toEqual([]);
  });

  it('never contacts a name that resolves off this machine for any of its addresses', async () => {
    const { net, connects } = network(['127.0.0.1', '198.51.100.2']);
    await reach({ kind: 'http', host: 'mixed.example.com', port: 80 }, net);
    expect(connects).toEqual([]);
  });

  it('connects to a server on loopback, and names host and port when it refuses', async () => {
    const { net, connects } = network(['127.0.0.1']);
    await expect(reach({ kind: 'smtp', host: 'localhost', port: 1 }, net)).rejects.toThrow('Could not connect to the SMTP server at localhost:1: ECONNREFUSED');
    expect(connects).toEqual(['localhost:1']);
  });

  it('fails a name that does not resolve, with the resolver’s reason', async () => {
    const failing = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    const net = { lookup: (async () => Promise.reject(failing)) as unknown as typeof lookup, connect };
    await expect(reach({ kind: 'sms', host: 'nowhere.invalid', port: 443 }, net)).rejects.toThrow('Could not connect to the SMS endpoint at nowhere.invalid:443: ENOTFOUND');
  });
});
