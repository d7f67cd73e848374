import { describe, expect, it } from 'vitest';
import { safeReturnTo, safeReturnToUrl } from './return-to';

const ORIGIN = 'http://localhost:3000';

describe('safeReturnTo', () => {
  it.each([
    ['/', '/'],
    ['/projects', '/projects'],
    ['/projects/abc/settings?tab=general#danger', '/projects/abc/settings?tab=general#danger'],
    ['/a/../b', '/b'],
    ['/a/./b', '/a/b'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/search?q=//evil.example', '/search?q=//evil.example'],
    ['/login?return_to=https://evil.example', '/login?return_to=https://evil.example'],
    ['http://localhost:3000/workspaces', '/workspaces'],
    ['HTTP://LOCALHOST:3000/workspaces', '/workspaces'],
    ['http://localhost:3000', '/'],
    ['http://localhost:3000?x=1', '/?x=1'],
  ])('%j → %j', (value, expected) => {
    expect(safeReturnTo(value, ORIGIN)).toBe(expected);
  });

  it.each([
    // not a string or empty
    [undefined],
    [null],
    [42],
    [['/projects']],
    [''],
    // protocol-relative and slash tricks
    ['//evil.example'],
    ['//evil.example/path'],
    ['///evil.example'],
    ['/.//evil.example'],
    ['/..//evil.example'],
    // backslashes, whitespace and control characters
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['/\\/evil.example'],
    ['/projects\\x'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    [' /projects'],
    ['/projects '],
    ['/pro jects'],
    ['/\u0000'],
    ['/\u00a0/evil.example'],
    ['/\u2028'],
    // other schemes
    ['javascript:alert(1)'],
    ['JavaScript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:msgbox'],
    ['ftp://localhost:3000/x'],
    ['mailto:a@localhost'],
    // other origins
    ['https://localhost:3000/x'],
    ['http://localhost:3001/x'],
    ['http://localhost/x'],
    ['http://evil.example/x'],
    ['http://localhost:3000.evil.example/x'],
    ['http://localhost:3000@evil.example/x'],
    ['http://user:pass@localhost:3000/x'],
    ['http:evil.example'],
    ['http:/evil.example'],
    // bare relative paths
    ['projects'],
    ['./projects'],
    ['../projects'],
    ['?x=1'],
    ['#top'],
  ])('%j → null', (value) => {
    expect(safeReturnTo(value, ORIGIN)).toBeNull();
  });

  it.each([
    ['https://console.example.com', 'https://console.example.com/x', '/x'],
    ['https://console.example.com', 'https://console.example.com:443/x', '/x'],
    ['https://console.example.com/', '/x', '/x'],
    ['https://console.example.com/some/path', '/x', '/x'],
    ['https://console.example.com', 'http://console.example.com/x', null],
    ['not a url', '/x', null],
    ['javascript:alert(1)', '/x', null],
    ['', '/x', null],
  ])('origin %j, value %j → %j', (origin, value, expected) => {
    expect(safeReturnTo(value, origin)).toBe(expected);
  });
});

describe('safeReturnToUrl', () => {
  it.each([
    ['/projects', 'http://localhost:3000/projects'],
    ['http://localhost:3000/a?b=c', 'http://localhost:3000/a?b=c'],
    ['//evil.example', null],
    ['https://evil.example/', null],
  ])('%j → %j', (value, expected) => {
    expect(safeReturnToUrl(value, ORIGIN)).toBe(expected);
  });
});
