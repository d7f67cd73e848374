import { describe, expect, it } from 'vitest';
import {
  DOMAIN_NAME_MESSAGES as M,
  domainNameSchema,
  isValidDomainName,
  isValidOrigin,
  ORIGIN_MESSAGES as O,
  originSchema,
  validateDomainName,
  validateOrigin,
} from './domain-name';

const label = (n: number, ch = 'a') => ch.repeat(n);
/** A name of exactly `total` characters made of 63-character labels and a shorter last label. */
function nameOfLength(total: number): string {
  const labels: string[] = [];
  let left = total;
  while (left > 64) {
    labels.push(label(63));
    left -= 64;
  }
  labels.push(label(left));
  return labels.join('.');
}

describe('validateDomainName', () => {
  it('builds names of the wanted length', () => {
    expect(nameOfLength(253)).toHaveLength(253);
    expect(nameOfLength(254)).toHaveLength(254);
  });

  it.each([
    ['example.com', null],
    ['a.b', null],
    ['sub.example.co.uk', null],
    ['EXAMPLE.COM', null],
    ['xn--bcher-kva.example', null],
    ['123.456', null],
    ['127.0.0.1', null],
    ['a-b.c-d', null],
    ['a--b.com', null],
    // trailing dot
    ['example.com.', null],
    ['localhost.', M.noDot],
    ['example.com..', M.labelLength],
    // must contain a dot
    ['localhost', M.noDot],
    ['', M.empty],
    ['.', M.noDot],
    // characters
    ['exa_mple.com', M.characters],
    ['exa mple.com', M.characters],
    ['example.com/', M.characters],
    ['*.example.com', M.characters],
    ['example.com:80', M.characters],
    ['bücher.example', M.characters],
    ['user@example.com', M.characters],
    // empty labels
    ['.example.com', M.labelLength],
    ['example..com', M.labelLength],
    // hyphen positions
    ['-example.com', M.labelHyphen],
    ['example-.com', M.labelHyphen],
    ['example.-com', M.labelHyphen],
    ['example.com-', M.labelHyphen],
    ['-.com', M.labelHyphen],
    ['example.com-.', M.labelHyphen],
  ])('%j → %j', (value, expected) => {
    expect(validateDomainName(value)).toBe(expected);
  });

  it.each([
    ['label of 63', `${label(63)}.com`, null],
    ['label of 64', `${label(64)}.com`, M.labelLength],
    ['last label of 63', `example.${label(63)}`, null],
    ['last label of 64', `example.${label(64)}`, M.labelLength],
    ['middle label of 64', `a.${label(64)}.com`, M.labelLength],
    ['total 253', nameOfLength(253), null],
    ['total 254', nameOfLength(254), M.tooLong],
    ['total 253 plus the trailing dot', `${nameOfLength(253)}.`, null],
    ['total 254 plus the trailing dot', `${nameOfLength(254)}.`, M.tooLong],
  ])('%s', (_name, value, expected) => {
    expect(validateDomainName(value)).toBe(expected);
  });

  it.each([['example.com', true], ['localhost', false], [`${label(64)}.com`, false]])(
    'isValidDomainName(%j) → %s',
    (value, expected) => {
      expect(isValidDomainName(value)).toBe(expected);
    },
  );
});

describe('validateOrigin', () => {
  it.each([
    ['https://example.com', null],
    ['http://example.com', null],
    ['HTTPS://Example.com', null],
    ['https://example.com.', null],
    // ports are stripped
    ['https://example.com:443', null],
    ['http://example.com:8080', null],
    ['http://127.0.0.1:3000', null],
    ['https://example.com:1', null],
    ['https://example.com:65535', null],
    ['https://example.com:0', O.port],
    ['https://example.com:65536', O.port],
    ['https://example.com:', M.characters],
    ['https://example.com:http', M.characters],
    // a leading '*.' is stripped, once
    ['https://*.example.com', null],
    ['https://*.example.com:8443', null],
    ['https://*.*.example.com', M.characters],
    ['https://*example.com', M.characters],
    ['https://a.*.example.com', M.characters],
    ['https://*.com', M.noDot],
    ['https://*.', M.empty],
    // the rest must be a domain name
    ['http://localhost:3000', M.noDot],
    ['https://', M.empty],
    ['https://example.com/', M.characters],
    ['https://example.com/path', M.characters],
    ['https://user@example.com', M.characters],
    ['https://-example.com', M.labelHyphen],
    [`https://${label(64)}.com`, M.labelLength],
    // the scheme
    ['example.com', O.scheme],
    ['//example.com', O.scheme],
    ['ftp://example.com', O.scheme],
    ['https:/example.com', O.scheme],
    ['javascript://example.com', O.scheme],
    [' https://example.com', O.scheme],
    ['', O.scheme],
  ])('%j → %j', (value, expected) => {
    expect(validateOrigin(value)).toBe(expected);
  });

  it.each([['https://*.example.com:8080', true], ['example.com', false]])('isValidOrigin(%j) → %s', (v, expected) => {
    expect(isValidOrigin(v)).toBe(expected);
  });
});

describe('zod schemas', () => {
  /** [input, parsed value or undefined, first issue message or undefined] */
  type Row = [string, string | undefined, string | undefined];

  it.each<Row>([
    [' example.com ', 'example.com', undefined],
    ['localhost', undefined, M.noDot],
    [`${label(64)}.com`, undefined, M.labelLength],
  ])('domainNameSchema %j → %j / %j', (value, data, message) => {
    const result = domainNameSchema.safeParse(value);
    expect(result.data).toBe(data);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it.each<Row>([
    [' https://*.example.com:8443 ', 'https://*.example.com:8443', undefined],
    ['example.com', undefined, O.scheme],
    ['https://example.com:99999', undefined, O.port],
  ])('originSchema %j → %j / %j', (value, data, message) => {
    const result = originSchema.safeParse(value);
    expect(result.data).toBe(data);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it.each([[42], [null], [undefined]])('refuses %j with a clear message', (value) => {
    expect(domainNameSchema.safeParse(value).error?.issues[0]?.message).toBe(M.empty);
    expect(originSchema.safeParse(value).error?.issues[0]?.message).toBe(O.empty);
  });
});
