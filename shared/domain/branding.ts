/** Ory's branding colour keys (projectBrandingColors), in the groups the console edits them in. */
export const BRANDING_COLOR_GROUPS = {
  Brand: ['primary_color', 'secondary_color'],
  Accent: ['accent_default_color', 'accent_emphasis_color', 'accent_muted_color', 'accent_subtle_color', 'accent_disabled_color'],
  Background: ['background_canvas_color', 'background_surface_color', 'background_subtle_color', 'border_default_color'],
  Text: [
    'foreground_default_color',
    'foreground_muted_color',
    'foreground_subtle_color',
    'foreground_disabled_color',
    'foreground_on_accent_color',
    'foreground_on_dark_color',
    'foreground_on_disabled_color',
    'text_default_color',
    'text_disabled_color',
  ],
  Inputs: ['input_background_color', 'input_text_color', 'input_placeholder_color', 'input_disabled_color'],
  'Errors and success': ['error_default_color', 'error_emphasis_color', 'error_muted_color', 'error_subtle_color', 'success_emphasis_color'],
} as const;

export const BRANDING_COLOR_KEYS = Object.values(BRANDING_COLOR_GROUPS).flat();
export type BrandingColorKey = (typeof BRANDING_COLOR_GROUPS)[keyof typeof BRANDING_COLOR_GROUPS][number];

/** Largest logo or favicon the console uploads, as a data URL (bytes of the file). */
export const BRANDING_IMAGE_MAX_BYTES = 100 * 1024;
export const BRANDING_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp', 'image/gif', 'image/x-icon', 'image/vnd.microsoft.icon'] as const;

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** The relative luminance of a hex colour (#rgb, #rrggbb, #rrggbbaa), or null if it is not one. */
export function luminance(hex: string): number | null {
  const m = hex.trim().match(/^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i);
  if (!m) return null;
  let h = m[1]!;
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio of two hex colours (1 to 21), or null if either is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const la = luminance(a);
  const lb = luminance(b);
  if (la === null || lb === null) return null;
  const [hi, lo] = la > lb ? [la, lb] : [lb, la];
  return (hi + 0.05) / (lo + 0.05);
}
