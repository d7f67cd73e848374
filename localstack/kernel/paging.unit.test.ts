import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { OryError } from './errors';
import { decodePageToken, encodePageToken, setLinkHeader } from './paging';

const ID = '0b6a8d2e-3f5c-4e1a-9d7b-2c4e6f8a0b1c';

function linkOf(url: string, pageSize: number, next: Parameters<typeof setLinkHeader>[3]): string {
  const headers: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => ((headers[name] = value), reply) } as unknown as FastifyReply;
  setLinkHeader({ url } as FastifyRequest, reply, pageSize, next);
  return headers.link ?? '';
}

describe('page tokens', () => {
  it('round-trip a keyset position, with and without a time', () => {
    expect(decodePageToken(encodePageToken({ id: ID }), false)).toEqual({ id: ID });
    const at = { id: ID, createdAt: '2026-11-23T14:00:00.123Z' };
    expect(decodePageToken(encodePageToken(at), true)).toEqual(at);
  });

  it('read no token as the first page', () => {
    expect(decodePageToken(undefined, true)).toBeNull();
    expect(decodePageToken('', false)).toBeNull();
  });

  it.each([
    ['not base64 JSON', 'garbage'],
    ['JSON without an id', Buffer.from('{}').toString('base64url')],
    ['an id that is no UUID', Buffer.from('{"i":"1; DROP"}').toString('base64url')],
  ])('refuse %s with a 400 naming page_token', (_what, token) => {
    const error = (() => {
      try {
        decodePageToken(token, false);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(OryError);
    expect((error as OryError).status).toBe(400);
    expect((error as OryError).body.error.reason).toContain('page_token');
  });

  it('refuse a token without the time a time-ordered list needs', () => {
    expect(() => decodePageToken(encodePageToken({ id: ID }), true)).toThrow(OryError);
  });
});

describe('the Link header', () => {
  it('keeps the path and filters, replaces page_size and page_token, and names first and next', () => {
    const link = linkOf('/project-api/p/admin/identities?credentials_identifier=a%40b.co&page_token=old&page_size=9', 2, { id: ID });
    const [first, next] = link.split(',');
    expect(first).toBe('</project-api/p/admin/identities?credentials_identifier=a%40b.co&page_size=2>; rel="first"');
    expect(next).toBe(
      `</project-api/p/admin/identities?credentials_identifier=a%40b.co&page_size=2&page_token=${encodePageToken({ id: ID })}>; rel="next"`,
    );
  });

  it('has no next link on the last page', () => {
    expect(linkOf('/admin/sessions', 250, null)).toBe('</admin/sessions?page_size=250>; rel="first"');
  });
});
