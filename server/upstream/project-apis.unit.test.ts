import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from './errors';
import { SLUG_PATTERN, checkProjectApiTemplate, projectApiBaseUrl } from './project-apis';

describe('checkProjectApiTemplate', () => {
  it.each(['https://{slug}.projects.oryapis.com', 'http://127.0.0.1:4455/project-api/{slug}/', 'https://api.example.com/p/{slug}'])('accepts %s', (template) => {
    expect(checkProjectApiTemplate(template)).toBe(template.replace(/\/+$/, ''));
  });

  it.each(['https://projects.oryapis.com', 'ftp://{slug}.example.com', 'https://x.example.com/{slug}?a=1', 'https://user:pw@{slug}.example.com', 'not a url {slug}'])(
    'refuses %s',
    (template) => {
      expect(() => checkProjectApiTemplate(template)).toThrow(/PROJECT_API_URL|Invalid URL/);
    },
  );
});

describe('projectApiBaseUrl', () => {
  it('puts the slug in the host name or the path', () => {
    expect(projectApiBaseUrl('https://{slug}.projects.oryapis.com', 'brave-bohr-1a2b')).toBe('https://brave-bohr-1a2b.projects.oryapis.com');
    expect(projectApiBaseUrl('http://127.0.0.1:4455/project-api/{slug}', 'abc')).toBe('http://127.0.0.1:4455/project-api/abc');
  });

  it('refuses anything that is not plainly a slug, so no URL can be steered elsewhere', () => {
    for (const slug of ['', 'evil.com/x', 'a@evil.com', '../admin', 'a b', 'UPPER', '-lead', 'trail-', 'a%2f', 'x#', 'x?y', 'a.b']) {
      expect(() => projectApiBaseUrl('https://{slug}.projects.oryapis.com', slug), slug).toThrow(UpstreamError);
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), (slug) => {
        const template = 'https://{slug}.projects.oryapis.com';
        if (!SLUG_PATTERN.test(slug)) {
          expect(() => projectApiBaseUrl(template, slug)).toThrow(UpstreamError);
          return;
        }
        const url = new URL(projectApiBaseUrl(template, slug));
        expect(url.hostname).toBe(`${slug}.projects.oryapis.com`);
        expect(url.pathname).toBe('/');
      }),
    );
  });
});
