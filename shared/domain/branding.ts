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

/** What is wrong with a file chosen as a logo or favicon (its type or its size), or null when it may be used. */
export function brandingImageProblem(file: { type: string; size: number }): string | null {
  if (!(BRANDING_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'Use a PNG, JPEG, SVG, WebP, GIF or ICO image.';
  if (file.size > BRANDING_IMAGE_MAX_BYTES) {
    return `The image must be at most ${BRANDING_IMAGE_MAX_BYTES / 1024} KB; this one has ${Math.ceil(file.size / 1024)} KB.`;
  }
  return null;
}

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

/** The hosted pages' style variables each colour key sets; the first key given for a variable wins. */
export const HOSTED_THEME_VARIABLES: ReadonlyArray<readonly [string, readonly BrandingColorKey[]]> = [
  ['--canvas', ['background_canvas_color']],
  ['--surface', ['background_surface_color']],
  ['--subtle', ['background_subtle_color']],
  ['--fg', ['foreground_default_color', 'text_default_color']],
  ['--muted', ['foreground_muted_color', 'foreground_subtle_color']],
  ['--accent', ['primary_color', 'accent_default_color']],
  ['--accent-hover', ['accent_emphasis_color', 'secondary_color']],
  ['--on-accent', ['foreground_on_accent_color']],
  ['--border', ['border_default_color']],
  ['--input-bg', ['input_background_color']],
  ['--input-fg', ['input_text_color']],
  ['--input-disabled', ['input_disabled_color']],
  ['--error', ['error_emphasis_color', 'error_default_color']],
  ['--error-bg', ['error_subtle_color', 'error_muted_color']],
  ['--success', ['success_emphasis_color']],
  ['--disabled', ['foreground_disabled_color', 'text_disabled_color']],
];

/** The hosted pages' light palette when no theme sets a variable. */
export const HOSTED_LIGHT_PALETTE: Readonly<Record<string, string>> = {
  '--canvas': '#f4f5f7',
  '--surface': '#ffffff',
  '--subtle': '#eef0f3',
  '--fg': '#16181d',
  '--muted': '#4a5160',
  '--accent': '#3b31c7',
  '--accent-hover': '#2d2599',
  '--on-accent': '#ffffff',
  '--border': '#c9ced8',
  '--input-bg': '#ffffff',
  '--input-fg': '#16181d',
  '--input-disabled': '#eef0f3',
  '--error': '#b3261e',
  '--error-bg': '#fdecea',
  '--success': '#17692f',
  '--disabled': '#6b7280',
};

/** A colour a stylesheet may carry: hex, rgb()/hsl() or a plain name; anything else is left out. */
const SAFE_COLOR = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\)|[a-zA-Z]{3,20})$/;

/** The style variables a theme sets (only those it gives a safe colour for). */
export function themeVariableValues(theme: Partial<Record<BrandingColorKey, string | null | undefined>> | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!theme) return out;
  for (const [variable, keys] of HOSTED_THEME_VARIABLES) {
    const value = keys.map((k) => theme[k]).find((v): v is string => typeof v === 'string' && SAFE_COLOR.test(v.trim()));
    if (value) out[variable] = value.trim();
  }
  return out;
}

/** The pairs of the hosted pages whose text must stay readable, with what they are called. */
const CONTRAST_PAIRS: ReadonlyArray<{ text: string; background: string; what: string }> = [
  { text: '--fg', background: '--surface', what: 'Text on the card' },
  { text: '--muted', background: '--surface', what: 'Muted text on the card' },
  { text: '--on-accent', background: '--accent', what: 'Button text on the primary colour' },
  { text: '--accent', background: '--surface', what: 'Links on the card' },
  { text: '--input-fg', background: '--input-bg', what: 'Input text on the input background' },
  { text: '--error', background: '--error-bg', what: 'Error text on its background' },
];

/** WCAG AA for body text. */
export const MIN_CONTRAST = 4.5;

/** The pairs of a theme (over the default palette) whose contrast is below WCAG AA, with their ratio. */
export function contrastWarnings(theme: Partial<Record<BrandingColorKey, string | null | undefined>>): { what: string; ratio: number }[] {
  const palette = { ...HOSTED_LIGHT_PALETTE, ...themeVariableValues(theme) };
  const out: { what: string; ratio: number }[] = [];
  for (const pair of CONTRAST_PAIRS) {
    const ratio = contrastRatio(palette[pair.text]!, palette[pair.background]!);
    if (ratio !== null && ratio < MIN_CONTRAST) out.push({ what: pair.what, ratio: Math.round(ratio * 100) / 100 });
  }
  return out;
}
