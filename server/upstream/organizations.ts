import type { CreateOrganizationOnboardingPortalLinkBody, OrganizationBody, UpdateOrganizationOnboardingPortalLinkBody } from '@ory/client';
import { assertRequiredParams } from '../../shared/domain/required-param';
import {
  getOrganizationResponseSchema,
  listOrganizationsResponseSchema,
  onboardingPortalLinkSchema,
  onboardingPortalLinksResponseSchema,
  organizationSchema,
} from '../../shared/schemas/organizations';
import type { CallContext } from './backoffice';
import type { ControlPlaneSdk } from './control-plane-sdk';

/** Spec §7 organizations and onboarding portal links, through ProjectApi (the link update is a POST). */
export function createOrganizationCalls(sdk: ControlPlaneSdk) {
  const { projects, send } = sdk;
  return {
    list(c: CallContext, projectId: string, q: { pageSize?: number | undefined; pageToken?: string | undefined; domain?: string | undefined }) {
      assertRequiredParams('listOrganizations', { projectId });
      return send(c, 'listOrganizations', listOrganizationsResponseSchema, (o) =>
        projects.listOrganizations({ projectId, ...(q.pageSize ? { pageSize: q.pageSize } : {}), ...(q.pageToken ? { pageToken: q.pageToken } : {}), ...(q.domain ? { domain: q.domain } : {}) }, o),
      );
    },
    get(c: CallContext, projectId: string, organizationId: string) {
      assertRequiredParams('getOrganization', { projectId, organizationId });
      return send(c, 'getOrganization', getOrganizationResponseSchema, (o) => projects.getOrganization({ projectId, organizationId }, o));
    },
    create(c: CallContext, projectId: string, organizationBody: OrganizationBody) {
      assertRequiredParams('createOrganization', { projectId });
      return send(c, 'createOrganization', organizationSchema, (o) => projects.createOrganization({ projectId, organizationBody }, o));
    },
    update(c: CallContext, projectId: string, organizationId: string, organizationBody: OrganizationBody) {
      assertRequiredParams('updateOrganization', { projectId, organizationId });
      return send(c, 'updateOrganization', organizationSchema, (o) => projects.updateOrganization({ projectId, organizationId, organizationBody }, o));
    },
    remove(c: CallContext, projectId: string, organizationId: string): Promise<void> {
      assertRequiredParams('deleteOrganization', { projectId, organizationId });
      return send(c, 'deleteOrganization', undefined, (o) => projects.deleteOrganization({ projectId, organizationId }, o));
    },
    links(c: CallContext, projectId: string, organizationId: string) {
      assertRequiredParams('getOrganizationOnboardingPortalLinks', { projectId, organizationId });
      return send(c, 'getOrganizationOnboardingPortalLinks', onboardingPortalLinksResponseSchema, (o) => projects.getOrganizationOnboardingPortalLinks({ projectId, organizationId }, o));
    },
    createLink(c: CallContext, projectId: string, organizationId: string, body: CreateOrganizationOnboardingPortalLinkBody) {
      assertRequiredParams('createOrganizationOnboardingPortalLink', { projectId, organizationId });
      return send(c, 'createOrganizationOnboardingPortalLink', onboardingPortalLinkSchema, (o) =>
        projects.createOrganizationOnboardingPortalLink({ projectId, organizationId, createOrganizationOnboardingPortalLinkBody: body }, o),
      );
    },
    updateLink(c: CallContext, projectId: string, organizationId: string, onboardingPortalLinkId: string, body: UpdateOrganizationOnboardingPortalLinkBody) {
      assertRequiredParams('updateOrganizationOnboardingPortalLink', { projectId, organizationId, onboardingPortalLinkId });
      return send(c, 'updateOrganizationOnboardingPortalLink', onboardingPortalLinkSchema, (o) =>
        projects.updateOrganizationOnboardingPortalLink({ projectId, organizationId, onboardingPortalLinkId, updateOrganizationOnboardingPortalLinkBody: body }, o),
      );
    },
    removeLink(c: CallContext, projectId: string, organizationId: string, onboardingPortalLinkId: string): Promise<void> {
      assertRequiredParams('deleteOrganizationOnboardingPortalLink', { projectId, organizationId, onboardingPortalLinkId });
      return send(c, 'deleteOrganizationOnboardingPortalLink', undefined, (o) => projects.deleteOrganizationOnboardingPortalLink({ projectId, organizationId, onboardingPortalLinkId }, o));
    },
  };
}
