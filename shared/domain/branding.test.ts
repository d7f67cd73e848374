import { describe, expect, it } from 'vitest';
import { BRANDING_COLOR_KEYS, brandingImageProblem, contrastRatio, contrastWarnings, themeVariableValues } from './branding';

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

  it('set the hosted pages’ variables, the first key given winning, and only safe colours', () => {
    expect(themeVariableValues({ primary_color: '#111111', accent_default_color: '#222222', background_canvas_color: 'url(x)' })).toEqual({ '--accent': '#111111' });
    expect(themeVariableValues({ accent_default_color: '#222222' })).toEqual({ '--accent': '#222222' });
    expect(themeVariableValues(null)).toEqual({});
  });

  it('warn of the readable pairs a theme makes unreadable, and of none for the default palette', () => {
    expect(contrastWarnings({})).toEqual([]);
    const warnings = contrastWarnings({ primary_color: '#ffff00' });
    expect(warnings.map((w) => w.what)).toEqual(['Button text on the primary colour', 'Links on the card']);
    expect(warnings[0]!.ratio).toBeLessThan(4.5);
  });

  it('take a logo or favicon of an image type and at most 100 KB', () => {
    expect(brandingImageProblem({ type: 'image/png', size: 100 * 1024 })).toBeNull();
    expect(brandingImageProblem({ type: 'image/svg+xml', size: 10 })).toBeNull();
    expect(brandingImageProblem({ type: 'image/png', size: 100 * 1024 + 1 })).toBe('The image must be at most 100 KB; this one has 101 KB.');
    expect(brandingImageProblem({ type: 'text/html', size: 10 })).toBe('Use a PNG, JPEG, SVG, WebP, GIF or ICO image.');
    expect(brandingImageProblem({ type: '', size: 10 })).toBe('Use a PNG, JPEG, SVG, WebP, GIF or ICO image.');
  });
});
