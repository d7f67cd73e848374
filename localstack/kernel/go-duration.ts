/** Nanoseconds per unit of a Go duration string (`time.ParseDuration`). */
const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  '\u00b5s': 1_000n,
  '\u03bcs': 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_NS = 2n ** 63n - 1n;
const TERM = /^(\d*)(?:\.(\d*))?([^\d.]+)/;

/**
 * A duration as Go's `time.ParseDuration` reads it ("1h", "1m30s", "-1.5h", "500ms", "0"), in nanoseconds,
 * or null for what Go refuses, an overflow of its int64 nanoseconds included.
 */
export function parseGoDuration(text: string): bigint | null {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return null;
  let total = 0n;
  while (rest !== '') {
    const match = TERM.exec(rest);
    if (!match) return null;
    const [whole, int = '', frac = '', unit = ''] = match;
    if (int === '' && frac === '') return null;
    const scale = UNITS[unit];
    if (scale === undefined) return null;
    const fraction = frac === '' ? 0n : (BigInt(frac) * scale) / 10n ** BigInt(frac.length);
    total += BigInt(int === '' ? 0 : int) * scale + fraction;
    if (total > MAX_NS + (negative ? 1n : 0n)) return null;
    rest = rest.slice(whole.length);
  }
  return negative ? -total : total;
}

/** Go's `Duration.String()` ("1h0m0s", "-5m0s", "0s", "1.5s", "500ms", "1\u00b5s"). */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  const abs = ns < 0n ? -ns : ns;
  /** `value / scale` as a decimal without trailing zeros. */
  const decimal = (value: bigint, scale: bigint) => {
    const digits = scale.toString().length - 1;
    const frac = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
    return `${value / scale}${frac ? `.${frac}` : ''}`;
  };
  if (abs < 1_000n) return `${sign}${abs}ns`;
  if (abs < 1_000_000n) return `${sign}${decimal(abs, 1_000n)}\u00b5s`;
  if (abs < 1_000_000_000n) return `${sign}${decimal(abs, 1_000_000n)}ms`;
  const h = abs / UNITS.h!;
  const m = (abs % UNITS.h!) / UNITS.m!;
  const seconds = `${decimal(abs % UNITS.m!, UNITS.s!)}s`;
  if (h > 0n) return `${sign}${h}h${m}m${seconds}`;
  if (m > 0n) return `${sign}${m}m${seconds}`;
  return `${sign}${seconds}`;
}
