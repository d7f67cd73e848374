import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { brandingSchema, brandingThemeBodySchema, brandingThemeSchema } from '../../shared/schemas/branding';
import { route, type RouteContext } from '../kernel/route';
import { projectRefParams } from '../project/bodies';
import { activateTheme, brandingView, createBranding, createTheme, deactivateTheme, deleteTheme, ensureBranding, updateTheme } from './service';

const themeParams = projectRefParams.extend({ theme: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });

/**
 * Branding (spec §7): a project's themes for its hosted pages. The theme calls are a project's, so they
 * take the project in the path (`/projects/{project}/branding/…`); members read, writers change.
 */
export function registerBrandingRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/branding',
    params: projectRefParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    // The first read makes the branding with its built-in theme, as a first visit to the theming page does.
    transaction: true,
    response: brandingSchema,
    handler: async ({ q, project }) => brandingView(q, await ensureBranding(q, project, ctx.clock.now())),
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project/branding',
    params: projectRefParams,
    body: brandingThemeBodySchema,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    response: brandingSchema,
    handler: async ({ q, project, body }) => brandingView(q, await createBranding(q, project, body, ctx.clock.now())),
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project/branding/themes',
    params: projectRefParams,
    body: brandingThemeBodySchema,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    response: brandingThemeSchema,
    handler: async ({ q, project, body }) => createTheme(q, project, body, ctx.clock.now()),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/projects/:project/branding/themes/:theme',
    params: themeParams,
    body: brandingThemeBodySchema,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    response: brandingThemeSchema,
    handler: async ({ q, project, params, body }) => updateTheme(q, project, params.theme, body, ctx.clock.now()),
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/projects/:project/branding/themes/:theme',
    params: themeParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 204,
    handler: async ({ q, project, params }) => deleteTheme(q, project, params.theme, ctx.clock.now()),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/projects/:project/branding/themes/:theme/active',
    params: themeParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    response: brandingSchema,
    handler: async ({ q, project, params }) => activateTheme(q, project, params.theme, ctx.clock.now()),
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/projects/:project/branding/active',
    params: projectRefParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    response: brandingSchema,
    handler: async ({ q, project }) => deactivateTheme(q, project, ctx.clock.now()),
  });
}
