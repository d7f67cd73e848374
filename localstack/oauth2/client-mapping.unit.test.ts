import { describe, expect, it } from 'vitest';
import { toProviderMetadata } from './client-mapping';

describe('toProviderMetadata', () => {
  it("maps a Hydra client with Hydra's empty defaults to the code flow", () => {
    const metadata = toProviderMetadata({ client_id: 'a', client_secret: 's3cret!', redirect_uris: ['https://app/cb'], grant_types: [], response_types: [] });
    expect(metadata).toMatchObject({
      client_id: 'a',
      client_secret: 's3cret!',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
  });

  it('asks for no browser response from a client-credentials client', () => {
    const metadata = toProviderMetadata({ client_id: 'm', client_secret: 'x', grant_types: ['client_credentials'], response_types: ['code'] });
    expect(metadata.grant_types).toEqual(['client_credentials']);
    expect(metadata.response_types).toEqual([]);
  });

  it('gives a public client no secret, keeps Hydra fields oidc-provider reads back, and drops empty ones', () => {
    const metadata = toProviderMetadata({
      client_id: 'p',
      client_secret: 'ignored',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://app/cb'],
      access_token_strategy: 'jwt',
      skip_consent: true,
      audience: [],
      client_name: '',
      metadata: { team: 'x' },
    });
    expect(metadata).not.toHaveProperty('client_secret');
    expect(metadata).not.toHaveProperty('audience');
    expect(metadata).not.toHaveProperty('client_name');
    expect(metadata).not.toHaveProperty('metadata');
    expect(metadata).toMatchObject({ token_endpoint_auth_method: 'none', access_token_strategy: 'jwt', skip_consent: true });
  });

  it('makes a client of loopback redirect URIs only a native one, whose callback may use any port', () => {
    expect(toProviderMetadata({ client_id: 'cli', redirect_uris: ['http://127.0.0.1/callback'] }).application_type).toBe('native');
    expect(toProviderMetadata({ client_id: 'web', redirect_uris: ['http://127.0.0.1/cb', 'https://app.example.com/cb'] }).application_type).toBeUndefined();
  });
});
