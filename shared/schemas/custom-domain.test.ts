import { describe, expect, it } from 'vitest';
import { DOMAIN_NAME_MESSAGES, ORIGIN_MESSAGES } from '../domain/domain-name';
import {
  COOKIE_DOMAIN_MESSAGE,
  createCustomDomainBodySchema,
  customDomainSchema,
  isCookieDomainOf,
  setCustomDomainBodySchema,
} from './custom-domain';

describe('customDomainSchema', () => {
  it.each([
    [{}],
    [{ id: 'd1', hostname: 'auth.example.com', ssl_status: '', verification_status: 'pending' }],
    [{ ssl_status: 'some_new_status', extra: true }],
  ])('accepts %j and keeps its fields', (value) => {
    expect(customDomainSchema.parse(value)).toEqual(value);
  });
});

describe('isCookieDomainOf', () => {
  it.each([
    ['example.com', 'auth.example.com', true],
    ['auth.example.com', 'auth.example.com', true],
    ['EXAMPLE.com.', 'auth.example.COM', true],
    ['ample.com', 'auth.example.com', false],
    ['other.com', 'auth.example.com', false],
    ['a.auth.example.com', 'auth.example.com', false],
  ])('%s for %s → %s', (cookie, host, expected) => {
    expect(isCookieDomainOf(cookie, host)).toBe(expected);
  });
});

describe('custom domain bodies', () => {
  it.each([
    [{ hostname: 'auth.example.com' }, undefined],
    [
      {
        hostname: 'auth.example.com',
        cookie_domain: 'example.com',
        custom_ui_base_url: 'https://ui.example.com/app',
        cors_enabled: true,
        cors_allowed_origins: ['https://*.example.com', 'http://app.example.com:8080'],
      },
      undefined,
    ],
    [{}, DOMAIN_NAME_MESSAGES.empty],
    [{ hostname: 'localhost' }, DOMAIN_NAME_MESSAGES.noDot],
    [{ hostname: 'auth.example.com', cookie_domain: 'other.com' }, COOKIE_DOMAIN_MESSAGE],
    [{ hostname: 'auth.example.com', cors_allowed_origins: ['example.com'] }, ORIGIN_MESSAGES.scheme],
    [{ hostname: 'auth.example.com', custom_ui_base_url: 'javascript:alert(1)' }, 'Must be an http:// or https:// URL'],
  ])('create %j → %j', (body, message) => {
    const result = createCustomDomainBodySchema.safeParse(body);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it.each([
    [{}, undefined],
    [{ cors_enabled: false }, undefined],
    [{ cookie_domain: 'example.com' }, undefined],
    [{ hostname: 'a.example.com', cookie_domain: 'b.example.com' }, COOKIE_DOMAIN_MESSAGE],
    [{ hostname: '-bad.example.com' }, DOMAIN_NAME_MESSAGES.labelHyphen],
  ])('set %j → %j', (body, message) => {
    const result = setCustomDomainBodySchema.safeParse(body);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});
