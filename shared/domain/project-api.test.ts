import { describe, expect, it } from 'vitest';
import { hostedSignInUrls, projectApiUrl } from './project-api';

describe('project API endpoint', () => {
  it('fills the template with the slug and drops a trailing slash', () => {
    expect(projectApiUrl('quirky-euler-1a2b3c', 'https://{slug}.projects.example.com')).toBe('https://quirky-euler-1a2b3c.projects.example.com');
    expect(projectApiUrl('abc', 'http://127.0.0.1:4455/project-api/{slug}/')).toBe('http://127.0.0.1:4455/project-api/abc');
  });

  it('never lets a slug change the host', () => {
    expect(projectApiUrl('evil.com/x', 'https://{slug}.projects.example.com')).toBe('https://evil.com%2Fx.projects.example.com');
  });

  it('puts the hosted sign-in pages under the project API', () => {
    expect(hostedSignInUrls('http://127.0.0.1:4455/project-api/abc/')).toEqual({
      base: 'http://127.0.0.1:4455/project-api/abc/ui',
      login: 'http://127.0.0.1:4455/project-api/abc/ui/login',
      registration: 'http://127.0.0.1:4455/project-api/abc/ui/registration',
    });
  });
});
