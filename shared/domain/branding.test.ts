import { describe, expect, it } from 'vitest';
import { BRANDING_COLOR_KEYS, contrastRatio } from './branding';

describe('branding colours', () => {
  it("are Ory's 29 colour keys, each once", () => {
    expect(BRANDING_COLOR_KEYS).toHaveLength(29);
    expect(new Set(BRANDING_COLOR_KEYS).size).toBe(29);
  });

  it('measure contrast as WCAG does', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#3b31c7', '#ffffff')!).toBeGreaterThan(4.5);
    expect(contrastRatio('#777777', '#ffffff')!).toBeLessThan(4.5);
    expect(contrastRatio('blue', '#fff')).toBeNull();
  });
});
