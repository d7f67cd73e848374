import { describe, expect, it } from 'vitest';
import { hostedSignInUrls, PROJECT_API_URL_TEMPLATE, projectApiUrl } from './project-api';

describe('project API endpoint', () => {
  it('fills the cloud template with the slug', () => {
    expect(PROJECT_API_URL_TEMPLATE).toBe('https://{slug}.projects.oryapis.com');
    expect(projectApiUrl('quirky-euler-1a2b3c')).toBe('https://quirky-euler-1a2b3c.projects.oryapis.com');
  });

  it('follows another template and drops a trailing slash', () => {
    expect(projectApiUrl('abc', 'http://127.0.0.1:4455/projects/{slug}/')).toBe('http://127.0.0.1:4455/projects/abc');
  });

  it('never lets a slug change the host', () => {
    expect(projectApiUrl('evil.com/x')).toBe('https://evil.com%2Fx.projects.oryapis.com');
  });

  it('puts the hosted sign-in pages under the project API', () => {
    expect(hostedSignInUrls('abc')).toEqual({
      base: 'https://abc.projects.oryapis.com/ui',
      login: 'https://abc.projects.oryapis.com/ui/login',
      registration: 'https://abc.projects.oryapis.com/ui/registration',
    });
  });
});
