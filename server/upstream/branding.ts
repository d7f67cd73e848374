import type { z } from 'zod';
import { assertRequiredParams } from '../../shared/domain/required-param';
import { brandingSchema, brandingThemeSchema, type Branding, type BrandingTheme, type BrandingThemeBody } from '../../shared/schemas/branding';
import type { CallContext } from './backoffice';
import { path, type HttpMethod } from './http';

type Call = <T>(c: CallContext, method: HttpMethod, p: string, schema?: z.ZodType<T>, body?: unknown) => Promise<T>;

/**
 * Spec §7 branding calls. @ory/client has no method for them (CONTRACT.md: orphans `projectBranding`,
 * `projectBrandingTheme`, `createProjectBranding`, `setProjectBrandingThemeBody`), so they go through our
 * own client. The theme calls name the project in the path, as the local stack serves them.
 */
export function createBrandingCalls(call: Call) {
  return {
    get(c: CallContext, projectId: string): Promise<Branding> {
      assertRequiredParams('getProjectBranding', { projectId });
      return call(c, 'GET', path`/projects/${projectId}/branding`, brandingSchema);
    },
    createTheme(c: CallContext, projectId: string, body: BrandingThemeBody): Promise<BrandingTheme> {
      assertRequiredParams('createProjectBrandingTheme', { projectId, createProjectBranding: body });
      return call(c, 'POST', path`/projects/${projectId}/branding/themes`, brandingThemeSchema, body);
    },
    updateTheme(c: CallContext, projectId: string, themeId: string, body: BrandingThemeBody): Promise<BrandingTheme> {
      assertRequiredParams('setProjectBrandingTheme', { projectId, theme: themeId, setProjectBrandingThemeBody: body });
      return call(c, 'PUT', path`/projects/${projectId}/branding/themes/${themeId}`, brandingThemeSchema, body);
    },
    async deleteTheme(c: CallContext, projectId: string, themeId: string): Promise<void> {
      assertRequiredParams('deleteProjectBrandingTheme', { projectId, theme: themeId });
      await call(c, 'DELETE', path`/projects/${projectId}/branding/themes/${themeId}`);
    },
    activate(c: CallContext, projectId: string, themeId: string): Promise<Branding> {
      assertRequiredParams('activateProjectBrandingTheme', { projectId, theme: themeId });
      return call(c, 'PUT', path`/projects/${projectId}/branding/themes/${themeId}/active`, brandingSchema);
    },
    deactivate(c: CallContext, projectId: string): Promise<Branding> {
      assertRequiredParams('deactivateProjectBrandingTheme', { projectId });
      return call(c, 'DELETE', path`/projects/${projectId}/branding/active`, brandingSchema);
    },
  };
}
