import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createOnboardingLinkBody,
  getOrganizationResponseSchema,
  listOrganizationsResponseSchema,
  onboardingPortalLinkSchema,
  onboardingPortalLinksResponseSchema,
  organizationBody,
  organizationListQuery,
  organizationSchema,
  updateOnboardingLinkBody,
} from '../../shared/schemas/organizations';
import type { LocalStackContext } from '../kernel/context';
import { badRequest, notFound } from '../kernel/errors';
import type { Queryable } from '../kernel/queryable';
import { readPageToken } from '../kernel/page-token';
import { route } from '../kernel/route';
import { projectIdParams } from '../project/bodies';
import { createLink, createOrganization, deleteOrganization, updateLink, updateOrganization } from './service';
import { deleteLinkRow, findLink, findOrganization, listLinks, listOrganizations } from './store';
import { onboardingLinkView, organizationView } from './views';

const pathUuid = z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase());
const organizationParams = z.object({ project_id: pathUuid, organization_id: pathUuid });
const linkParams = z.object({ project_id: pathUuid, organization_id: pathUuid, onboarding_portal_link_id: pathUuid });

/** An organization of the project the path names (already checked), or 404: another project's is as missing as none. */
async function organizationIn(q: Queryable, projectId: string, organizationId: string) {
  const row = await findOrganization(q, organizationId);
  if (!row || row.project_id !== projectId) throw notFound(`No organization ${organizationId} exists in project ${projectId}.`);
  return row;
}

async function linkIn(q: Queryable, organizationId: string, linkId: string) {
  const row = await findLink(q, linkId);
  if (!row || row.organization_id !== organizationId) throw notFound(`No onboarding portal link ${linkId} exists for organization ${organizationId}.`);
  return row;
}

/**
 * Organizations of a project and their onboarding portal links (spec §7; CONTRACT.md: ProjectApi
 * organizations, the link update is a POST). Members list and read them, writers create and change them,
 * deleting takes the project's delete permission. Creating one counts against the plan's `organizations`,
 * a link needs `onboarding_portal`.
 */
export function registerOrganizationRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  const base = '/projects/:project_id/organizations';
  route(scope, ctx, {
    method: 'GET',
    url: base,
    params: projectIdParams,
    query: organizationListQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: listOrganizationsResponseSchema,
    handler: async ({ q, project, query }) => {
      const cursor = readPageToken(query.page_token, true);
      if (cursor === 'invalid') throw badRequest('The page_token is invalid; pass the next_page_token of a previous answer.', { field: 'page_token' });
      const after = cursor ? { createdAt: cursor.createdAt!, id: cursor.id } : null;
      const domain = query.domain ? query.domain.toLowerCase().replace(/\.$/, '') : undefined;
      const rows = await listOrganizations(q, project.id, query.page_size, after, domain);
      const page = rows.slice(0, query.page_size);
      const last = page.at(-1);
      const hasNext = rows.length > query.page_size && last !== undefined;
      return {
        organizations: page.map(organizationView),
        has_next_page: hasNext,
        next_page_token: hasNext ? Buffer.from(JSON.stringify({ i: last.id, c: last.created_at.toISOString() })).toString('base64url') : '',
      };
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: base,
    params: projectIdParams,
    body: organizationBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    response: organizationSchema,
    handler: async ({ q, project, body }) => organizationView(await createOrganization(q, project, body, ctx.clock.now())),
  });

  route(scope, ctx, {
    method: 'GET',
    url: `${base}/:organization_id`,
    params: organizationParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: getOrganizationResponseSchema,
    handler: async ({ q, project, params }) => ({ organization: organizationView(await organizationIn(q, project.id, params.organization_id)) }),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: `${base}/:organization_id`,
    params: organizationParams,
    body: organizationBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    response: organizationSchema,
    handler: async ({ q, project, params, body }) =>
      organizationView(await updateOrganization(q, await organizationIn(q, project.id, params.organization_id), body, ctx.clock.now())),
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: `${base}/:organization_id`,
    params: organizationParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.delete',
    status: 204,
    handler: async ({ q, project, params }) => {
      await deleteOrganization(q, await organizationIn(q, project.id, params.organization_id));
    },
  });

  const links = `${base}/:organization_id/onboarding-portal-links`;
  route(scope, ctx, {
    method: 'GET',
    url: links,
    params: organizationParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: onboardingPortalLinksResponseSchema,
    handler: async ({ q, project, params }) => {
      const organization = await organizationIn(q, project.id, params.organization_id);
      return { links: (await listLinks(q, organization.id)).map(onboardingLinkView) };
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: links,
    params: organizationParams,
    body: createOnboardingLinkBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    response: onboardingPortalLinkSchema,
    handler: async ({ q, project, params, body }) => {
      const organization = await organizationIn(q, project.id, params.organization_id);
      return onboardingLinkView(await createLink(q, project, organization, body, ctx.clock.now()));
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: `${links}/:onboarding_portal_link_id`,
    params: linkParams,
    body: updateOnboardingLinkBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    response: onboardingPortalLinkSchema,
    handler: async ({ q, project, params, body }) => {
      const organization = await organizationIn(q, project.id, params.organization_id);
      return onboardingLinkView(await updateLink(q, await linkIn(q, organization.id, params.onboarding_portal_link_id), body, ctx.clock.now()));
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: `${links}/:onboarding_portal_link_id`,
    params: linkParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 204,
    handler: async ({ q, project, params }) => {
      const organization = await organizationIn(q, project.id, params.organization_id);
      await deleteLinkRow(q, (await linkIn(q, organization.id, params.onboarding_portal_link_id)).id);
    },
  });
}
