import { describe, expect, it } from 'vitest';
import { oauth2Endpoints } from './oauth2-endpoints';

describe('oauth2Endpoints', () => {
  it("lists Hydra's paths below the project's API URL", () => {
    const byId = Object.fromEntries(oauth2Endpoints('http://127.0.0.1:4455/project-api/shop/').map((e) => [e.id, e.url]));
    expect(byId).toEqual({
      issuer: 'http://127.0.0.1:4455/project-api/shop',
      discovery: 'http://127.0.0.1:4455/project-api/shop/.well-known/openid-configuration',
      authorization: 'http://127.0.0.1:4455/project-api/shop/oauth2/auth',
      token: 'http://127.0.0.1:4455/project-api/shop/oauth2/token',
      userinfo: 'http://127.0.0.1:4455/project-api/shop/userinfo',
      jwks: 'http://127.0.0.1:4455/project-api/shop/.well-known/jwks.json',
      revocation: 'http://127.0.0.1:4455/project-api/shop/oauth2/revoke',
      introspection: 'http://127.0.0.1:4455/project-api/shop/admin/oauth2/introspect',
      logout: 'http://127.0.0.1:4455/project-api/shop/oauth2/sessions/logout',
    });
  });
});
