import { TRPCError } from '@trpc/server';
import { BRANDING_COLOR_KEYS } from '../../../shared/domain/branding';
import {
  brandingCreateThemeInput,
  brandingGetInput,
  brandingSchema,
  brandingThemeRefInput,
  brandingThemeSchema,
  brandingUpdateThemeInput,
  okOutput,
  themeColors,
  type BrandingThemeBody,
} from '../../../shared/schemas/branding';
import { projectProcedure, router } from '../../trpc/init';

/** The name and images of an input, as Ory's theme body names them (only those given; a removed image is ''). */
const imageBody = (input: {
  name?: string | undefined;
  logo_url?: string | null | undefined;
  logo_type?: string | undefined;
  favicon_url?: string | null | undefined;
  favicon_type?: string | undefined;
}): BrandingThemeBody => ({
  ...(input.name !== undefined ? { name: input.name } : {}),
  ...(input.logo_url !== undefined ? { logo_url: input.logo_url ?? '' } : {}),
  ...(input.logo_type !== undefined ? { logo_type: input.logo_type } : {}),
  ...(input.favicon_url !== undefined ? { favicon_url: input.favicon_url ?? '' } : {}),
  ...(input.favicon_type !== undefined ? { favicon_type: input.favicon_type } : {}),
});

/**
 * Branding themes of a project's hosted pages (spec §7): members read them, writers add, edit, activate and
 * deactivate them, and deleting one takes the project's delete permission. A theme's fields are named as
 * Ory's (`primary_color`, …, `logo_url`), in the input as in the answer.
 */
export const brandingRouter = router({
  get: projectProcedure('backoffice.project.read')
    .input(brandingGetInput)
    .output(brandingSchema)
    .query(({ ctx }) => ctx.deps.backoffice.branding.get(ctx.call, ctx.projectId)),

  createTheme: projectProcedure('backoffice.project.write')
    .input(brandingCreateThemeInput)
    .output(brandingThemeSchema)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.branding.createTheme(ctx.call, ctx.projectId, { ...imageBody(input), theme: themeColors(input) })),

  /** Only the fields given change: the colours given are merged onto the theme's own (null clears one). */
  updateTheme: projectProcedure('backoffice.project.write')
    .input(brandingUpdateThemeInput)
    .output(brandingThemeSchema)
    .mutation(async ({ ctx, input }) => {
      const body = imageBody(input);
      const givenColors = BRANDING_COLOR_KEYS.filter((k) => input[k] !== undefined);
      if (givenColors.length > 0) {
        const branding = await ctx.deps.backoffice.branding.get(ctx.call, ctx.projectId);
        const current = branding.themes.find((t) => t.id === input.themeId);
        if (!current) throw new TRPCError({ code: 'NOT_FOUND', message: 'No such theme in this project. Reload the themes and try again.' });
        const merged = { ...themeColors(current) } as Record<string, string>;
        for (const key of givenColors) {
          const value = input[key];
          if (value === null) delete merged[key];
          else merged[key] = value!;
        }
        body.theme = merged;
      }
      return ctx.deps.backoffice.branding.updateTheme(ctx.call, ctx.projectId, input.themeId, body);
    }),

  deleteTheme: projectProcedure('backoffice.project.delete')
    .input(brandingThemeRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.branding.deleteTheme(ctx.call, ctx.projectId, input.themeId);
      return { ok: true as const };
    }),

  activate: projectProcedure('backoffice.project.write')
    .input(brandingThemeRefInput)
    .output(brandingSchema)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.branding.activate(ctx.call, ctx.projectId, input.themeId)),

  deactivate: projectProcedure('backoffice.project.write')
    .input(brandingGetInput)
    .output(brandingSchema)
    .mutation(({ ctx }) => ctx.deps.backoffice.branding.deactivate(ctx.call, ctx.projectId)),
});
