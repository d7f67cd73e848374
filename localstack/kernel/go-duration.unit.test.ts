import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration } from './go-duration';

describe('Go durations', () => {
  it('reads what time.ParseDuration reads', () => {
    const ms = (n: number) => BigInt(n) * 1_000_000n;
    expect(parseGoDuration('1h')).toBe(ms(3_600_000));
    expect(parseGoDuration('1m30s')).toBe(ms(90_000));
    expect(parseGoDuration('500ms')).toBe(ms(500));
    expect(parseGoDuration('1.5h')).toBe(ms(5_400_000));
    expect(parseGoDuration('.5s')).toBe(ms(500));
    expect(parseGoDuration('2h45m')).toBe(ms(9_900_000));
    expect(parseGoDuration('1000000us')).toBe(ms(1000));
    expect(parseGoDuration('1\u00b5s')).toBe(1000n);
    expect(parseGoDuration('1\u03bcs')).toBe(1000n);
    expect(parseGoDuration('-15m')).toBe(ms(-900_000));
    expect(parseGoDuration('+2s')).toBe(ms(2000));
    expect(parseGoDuration('0')).toBe(0n);
    expect(parseGoDuration('-0')).toBe(0n);
    expect(parseGoDuration('0s')).toBe(0n);
    expect(parseGoDuration('2562047h')).toBe(ms(2562047 * 3_600_000));
  });

  it('refuses what Go refuses, overflows included', () => {
    for (const text of ['', '1', '15', 'h', '1d', '1 h', '1h ', '.s', '1..5s', '-', '1H', '99999999999999h', '2562048h', '9223372036855ms']) {
      expect(parseGoDuration(text), text).toBeNull();
    }
  });

  it('prints as Duration.String does', () => {
    expect(formatGoDuration(3_600_000_000_000n)).toBe('1h0m0s');
    expect(formatGoDuration(-900_000_000_000n)).toBe('-15m0s');
    expect(formatGoDuration(0n)).toBe('0s');
    expect(formatGoDuration(1_500_000_000n)).toBe('1.5s');
    expect(formatGoDuration(-500_000_000n)).toBe('-500ms');
    expect(formatGoDuration(1_500n)).toBe('1.5\u00b5s');
    expect(formatGoDuration(12n)).toBe('12ns');
    expect(formatGoDuration(3_723_000_000_000n)).toBe('1h2m3s');
  });
});
