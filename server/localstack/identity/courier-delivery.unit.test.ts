import { describe, expect, it } from 'vitest';
import { deliveryTarget } from './courier-delivery';

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
