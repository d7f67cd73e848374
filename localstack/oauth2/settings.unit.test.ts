import { describe, expect, it } from 'vitest';
import { parseDuration, resolveSettings } from './settings';

describe('parseDuration', () => {
  it('reads Go durations as Hydra writes them', () => {
    expect(parseDuration('1h')).toBe(3600);
    expect(parseDuration('5m')).toBe(300);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('720h')).toBe(2_592_000);
    expect(parseDuration('1500ms')).toBe(1);
  });

  it('refuses what is not one', () => {
    expect(parseDuration('')).toBeNull();
    expect(parseDuration('5')).toBeNull();
    expect(parseDuration('5 minutes')).toBeNull();
    expect(parseDuration('m5')).toBeNull();
  });
});

describe('resolveSettings', () => {
  it("gives Hydra's defaults to an empty config", () => {
    expect(resolveSettings({})).toEqual({
      urls: { login: null, consent: null, logout: null, error: null, postLogoutRedirect: null, issuer: null, deviceVerification: null, deviceSuccess: null },
      ttl: { accessToken: 3600, refreshToken: 2_592_000, idToken: 3600, authCode: 600, loginConsentRequest: 1800, deviceUserCode: 900 },
      devicePollingInterval: 5,
      jwtBearer: { jtiOptional: false, iatOptional: false, maxTtl: 2_592_000 },
      accessTokenStrategy: 'opaque',
      scopeStrategy: 'wildcard',
      pkce: { enforced: false, enforcedForPublicClients: false },
      subjectTypes: ['public'],
      pairwiseSalt: '',
      cookieSameSite: 'Lax',
      dynamicRegistration: { enabled: false, defaultScope: null },
    });
    expect(resolveSettings({ strategies: { scope: 'exact' } }).scopeStrategy).toBe('exact');
    expect(resolveSettings({ strategies: { scope: 'fuzzy' } }).scopeStrategy).toBe('wildcard');
    expect(resolveSettings({ oidc: { dynamic_client_registration: { enabled: true, default_scope: ['openid', 7, 'api'] } } }).dynamicRegistration).toEqual({
      enabled: true,
      defaultScope: ['openid', 'api'],
    });
  });

  it('reads each setting from its Hydra key and ignores values of the wrong kind', () => {
    const settings = resolveSettings({
      urls: { login: 'https://app.example.com/login', consent: 'not a url' },
      ttl: { access_token: '5m', id_token: 'soon' },
      strategies: { access_token: 'jwt' },
      oauth2: { pkce: { enforced: true } },
      oidc: { subject_identifiers: { supported_types: ['pairwise', 'other'], pairwise: { salt: 'pepper-pepper' } } },
      serve: { cookies: { same_site_mode: 'Strict' } },
    });
    expect(settings.urls.login).toBe('https://app.example.com/login');
    expect(settings.urls.consent).toBeNull();
    expect(settings.ttl.accessToken).toBe(300);
    expect(settings.ttl.idToken).toBe(3600);
    expect(settings.accessTokenStrategy).toBe('jwt');
    expect(settings.pkce.enforced).toBe(true);
    expect(settings.subjectTypes).toEqual(['pairwise']);
    expect(settings.pairwiseSalt).toBe('pepper-pepper');
    expect(settings.cookieSameSite).toBe('Strict');
  });
});
