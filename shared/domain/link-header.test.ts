import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages';
import { nextPageToken, pageTokenOf, parseLinkHeader } from './link-header';

describe('parseLinkHeader', () => {
  it.each([
    [null, {}],
    [undefined, {}],
    ['', {}],
    ['</clients?page_size=5&page_token=15>; rel="next"', { next: '/clients?page_size=5&page_token=15' }],
    [
      '</clients?page_size=5&page_token=0>; rel="first",</clients?page_size=5&page_token=15>; rel="next"',
      { first: '/clients?page_size=5&page_token=0', next: '/clients?page_size=5&page_token=15' },
    ],
    [
      '<https://api.example.com/x?page_token=a>; rel=next, <https://api.example.com/x?page_token=z>; rel=last',
      { next: 'https://api.example.com/x?page_token=a', last: 'https://api.example.com/x?page_token=z' },
    ],
    ['<https://e.x/a,b?page_token=1>; rel="next"', { next: 'https://e.x/a,b?page_token=1' }],
    ['</a>; title="x, y"; rel="next"', { next: '/a' }],
    ['</a>; rel="NEXT"', { next: '/a' }],
    ['</a>; rel="next last"', { next: '/a', last: '/a' }],
    ['</a>; rel="next", </b>; rel="next"', { next: '/a' }],
    ['</a>;rel=next', { next: '/a' }],
    ['</a> ; rel = "next" ; type="text/html"', { next: '/a' }],
    ['</a>; type="text/html"', {}],
    ['</a>; rel=""', {}],
    [' , </a>; rel="next" ,', { next: '/a' }],
  ])('%j → %j', (header, expected) => {
    expect(parseLinkHeader(header)).toEqual(expected);
  });

  it.each([['</a>'], ['</a> rel="next"'], ['</a>; rel="next", </b>'], ['garbage']])(
    '%j fails with the spec message',
    (header) => {
      expect(() => parseLinkHeader(header)).toThrow(new Error(MESSAGES.linkHeaderSplit));
    },
  );
});

describe('pageTokenOf / nextPageToken', () => {
  it.each([
    [undefined, undefined],
    ['/clients', undefined],
    ['/clients?page_size=5', undefined],
    ['/clients?page_token=', undefined],
    ['/clients?page_size=5&page_token=15', '15'],
    ['https://x.example/clients?page_token=abc%3D%3D#frag', 'abc=='],
    ['/clients?page_token=a&page_token=b', 'a'],
  ])('pageTokenOf(%j) → %j', (url, expected) => {
    expect(pageTokenOf(url)).toBe(expected);
  });

  it.each([
    [null, undefined],
    ['', undefined],
    ['</clients?page_size=5&page_token=15>; rel="next"', '15'],
    ['</clients?page_size=5&page_token=0>; rel="first"', undefined],
    [
      '</admin/clients?page_size=25&page_token=eyJvZmZzZXQiOiIyNSJ9>; rel="next",</admin/clients?page_size=25&page_token=eyJvZmZzZXQiOiIwIn0>; rel="first"',
      'eyJvZmZzZXQiOiIyNSJ9',
    ],
  ])('nextPageToken(%j) → %j', (header, expected) => {
    expect(nextPageToken(header)).toBe(expected);
  });

  it('fails on an unsplittable header', () => {
    expect(() => nextPageToken('</a>')).toThrow(MESSAGES.linkHeaderSplit);
  });
});
