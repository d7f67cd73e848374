import { describe, expect, it } from 'vitest';
import { staysOnOrigin, withoutForeignReturnTo } from './ory-return-to';
import { findMalformedText } from '../shared/text-input';

describe('findMalformedText', () => {
  it.each([
    [{ name: 'Shop 😀 ünïcode' }, null],
    [{ name: 'a\u0000b' }, 'name: must not contain the NUL character'],
    [{ traits: { name: 'x\ud800' } }, 'traits.name: must be valid Unicode text'],
    [{ list: ['ok', '\udc00'] }, 'list.1: must be valid Unicode text'],
    ['\u0000', 'input: must not contain the NUL character'],
    [{ 'k\u0000': 1 }, 'input: must not contain the NUL character'],
    [42, null],
    [undefined, null],
  ])('%j → %s', (value, expected) => {
    expect(findMalformedText(value)).toBe(expected);
  });
});

describe('staysOnOrigin', () => {
  const ours = 'http://localhost:3000';
  it.each([
    ['/login?flow=1', true],
    ['http://localhost:3000/x', true],
    ['/.ory/self-service/errors?id=1', true],
    ['//evil.example/x', false],
    ['/\\evil.example', false],
    ['https://evil.example', false],
    ['http://localhost:3001/', false],
    ['javascript:alert(1)', false],
  ])('%s → %s', (location, expected) => {
    expect(staysOnOrigin(location, ours)).toBe(expected);
  });
});

describe('withoutForeignReturnTo', () => {
  const json = 'application/json; charset=utf-8';
  const body = (value: unknown) => Buffer.from(JSON.stringify({ id: 'f', return_to: value }));
  it('drops a foreign return_to and keeps ours and non-JSON bodies untouched', () => {
    expect(JSON.parse(String(withoutForeignReturnTo(body('https://evil.example'), json, 'http://localhost:3000')))).toEqual({ id: 'f' });
    expect(JSON.parse(String(withoutForeignReturnTo(body('http://localhost:3000/p'), json, 'http://localhost:3000')))).toEqual({ id: 'f', return_to: 'http://localhost:3000/p' });
    const html = Buffer.from('<a href="https://evil.example">"return_to"</a>');
    expect(withoutForeignReturnTo(html, 'text/html', 'http://localhost:3000')).toBe(html);
  });
});
