import { describe, expect, it } from 'vitest';
import { HOSTED_PAGES, hostedPageUrl } from './hosted-pages';

describe('hosted page URLs', () => {
  it('live under the project API endpoint, with or without its trailing slash', () => {
    expect(hostedPageUrl('https://a.example.com/project-api/x', 'login')).toBe('https://a.example.com/project-api/x/ui/login');
    expect(hostedPageUrl('https://a.example.com/', 'consent')).toBe('https://a.example.com/ui/consent');
    expect(HOSTED_PAGES).toHaveLength(7);
  });
});
