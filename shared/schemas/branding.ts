import type { CreateProjectBranding, ProjectBranding, ProjectBrandingColors, ProjectBrandingTheme } from '@ory/client';
import { z } from 'zod';
import { BRANDING_COLOR_KEYS, BRANDING_IMAGE_MAX_BYTES, BRANDING_IMAGE_TYPES, type BrandingColorKey } from '../domain/branding';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

const hexColor = z
  .string()
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, { error: 'Use a hex colour such as #3b31c7.' });

/** Ory's projectBrandingColors: any of the 29 colour keys, each a hex colour. */
export const brandingColorsSchema = conformsTo<ProjectBrandingColors>()(
  z.strictObject(Object.fromEntries(BRANDING_COLOR_KEYS.map((k) => [k, hexColor.optional()])) as Record<BrandingColorKey, z.ZodOptional<typeof hexColor>>, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown colour: ${issue.keys.join(', ')}.` : undefined),
  }),
);

const dataUrlBytes = (url: string) => {
  const comma = url.indexOf(',');
  return comma < 0 ? 0 : Math.floor(((url.length - comma - 1) * 3) / 4);
};

/** A logo or favicon: an https URL, or an uploaded image as a base64 data URL of an image type, small enough. */
export const brandingImageSchema = z
  .string()
  .trim()
  .max(Math.ceil((BRANDING_IMAGE_MAX_BYTES * 4) / 3) + 64, { error: `The image must be at most ${BRANDING_IMAGE_MAX_BYTES / 1024} KB.` })
  .refine(
    (url) =>
      /^https:\/\/[^\s"'<>]+$/.test(url) ||
      new RegExp(`^data:(${BRANDING_IMAGE_TYPES.map((t) => t.replace(/[+.]/g, '\\$&')).join('|')});base64,[A-Za-z0-9+/]+=*$`).test(url),
    { error: 'Use an https URL or a PNG, JPEG, SVG, WebP, GIF or ICO image.' },
  )
  .refine((url) => !url.startsWith('data:') || dataUrlBytes(url) <= BRANDING_IMAGE_MAX_BYTES, {
    error: `The image must be at most ${BRANDING_IMAGE_MAX_BYTES / 1024} KB.`,
  });

const themeName = z.string().trim().min(1, { error: 'Give the theme a name.' }).max(64, { error: 'Use at most 64 characters for the name.' });

/** On the wire, an empty logo or favicon URL removes the image (and its type). */
const clearableImage = z.union([z.literal(''), brandingImageSchema]);

/** createProjectBranding and setProjectBrandingThemeBody: a theme's name, images and colours. */
export const brandingThemeBodySchema = conformsTo<CreateProjectBranding>()(
  z.object({
    name: themeName.optional(),
    logo_url: clearableImage.optional(),
    logo_type: z.string().max(64).optional(),
    favicon_url: clearableImage.optional(),
    favicon_type: z.string().max(64).optional(),
    theme: brandingColorsSchema.optional(),
  }),
);
export type BrandingThemeBody = z.infer<typeof brandingThemeBodySchema>;

/** Ory's projectBrandingTheme: the theme's fields and its colours side by side. */
export const brandingThemeSchema = conformsTo<ProjectBrandingTheme>()(
  z.looseObject({
    id: z.string(),
    project_branding_id: z.string(),
    name: z.string(),
    logo_url: z.string().optional(),
    logo_type: z.string().optional(),
    favicon_url: z.string().optional(),
    favicon_type: z.string().optional(),
    created_at: z.string(),
    updated_at: z.string(),
    ...Object.fromEntries(BRANDING_COLOR_KEYS.map((k) => [k, z.string().optional()])),
  }),
);
export type BrandingTheme = z.infer<typeof brandingThemeSchema>;

/** Ory's projectBranding: the theme in use (`default_theme`) and every theme of the project. */
export const brandingSchema = conformsTo<ProjectBranding>()(
  z.looseObject({
    id: z.string(),
    project_id: z.string(),
    default_theme: brandingThemeSchema,
    themes: z.array(brandingThemeSchema),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
export type Branding = z.infer<typeof brandingSchema>;

/** A theme's colours as procedure fields, named as Ory's (`primary_color`, …): each a hex colour. */
const colorFields = Object.fromEntries(BRANDING_COLOR_KEYS.map((k) => [k, hexColor.optional()])) as Record<BrandingColorKey, z.ZodOptional<typeof hexColor>>;
/** On an edit a colour may also be cleared (null): the page then falls back to Ory's default for it. */
const clearableColorFields = Object.fromEntries(BRANDING_COLOR_KEYS.map((k) => [k, hexColor.nullable().optional()])) as Record<
  BrandingColorKey,
  z.ZodOptional<z.ZodNullable<typeof hexColor>>
>;
const imageFields = {
  logo_url: brandingImageSchema.optional(),
  logo_type: z.string().max(64, { error: 'Use at most 64 characters for the type.' }).optional(),
  favicon_url: brandingImageSchema.optional(),
  favicon_type: z.string().max(64, { error: 'Use at most 64 characters for the type.' }).optional(),
};
/** On an edit a logo or favicon may also be removed (null). */
const clearableImageFields = { ...imageFields, logo_url: brandingImageSchema.nullable().optional(), favicon_url: brandingImageSchema.nullable().optional() };

export const brandingGetInput = z.object({ projectId: uuidSchema });
/** A new theme: its name, images and colours, every field named as Ory's theme names it. */
export const brandingCreateThemeInput = z.object({ projectId: uuidSchema, name: themeName, ...imageFields, ...colorFields });
/** An edit of a theme: only the fields given change; a colour, logo or favicon set to null is cleared. */
export const brandingUpdateThemeInput = z.object({ projectId: uuidSchema, themeId: uuidSchema, name: themeName.optional(), ...clearableImageFields, ...clearableColorFields });
export const brandingThemeRefInput = z.object({ projectId: uuidSchema, themeId: uuidSchema });
export type BrandingCreateThemeInput = z.infer<typeof brandingCreateThemeInput>;
export type BrandingUpdateThemeInput = z.infer<typeof brandingUpdateThemeInput>;
export const okOutput = z.object({ ok: z.literal(true) });

/** The colours of a theme as they are stored (Ory's projectBrandingColors), from a theme or an input. */
export function themeColors(fields: Partial<Record<BrandingColorKey, string | null | undefined>> | Record<string, unknown>): Partial<Record<BrandingColorKey, string>> {
  const out: Partial<Record<BrandingColorKey, string>> = {};
  for (const key of BRANDING_COLOR_KEYS) {
    const value = (fields as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}
