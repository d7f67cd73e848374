import { describe, expect, it } from 'vitest';
import { READER_ZONE_COOKIE, readerZoneOf } from './reader-zone';

describe('readerZoneOf', () => {
  it('reads the zone the browser named from a Cookie header, decoded, among other cookies', () => {
    expect(readerZoneOf(`ory_kratos_session=abc; ${READER_ZONE_COOKIE}=America%2FArgentina%2FBuenos_Aires; csrf=x=y`)).toBe('America/Argentina/Buenos_Aires');
    expect(readerZoneOf(`${READER_ZONE_COOKIE}=UTC`)).toBe('UTC');
  });

  it('answers nothing without the cookie, or for a value that does not decode', () => {
    expect(readerZoneOf(undefined)).toBeUndefined();
    expect(readerZoneOf('')).toBeUndefined();
    expect(readerZoneOf(`not_${READER_ZONE_COOKIE}=UTC`)).toBeUndefined();
    expect(readerZoneOf(`${READER_ZONE_COOKIE}=%E0%A4%A`)).toBeUndefined();
  });
});
