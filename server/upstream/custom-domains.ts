import type { CreateCustomDomainBody, SetCustomDomainBody } from '@ory/client';
import type { z } from 'zod';
import { requireCustomDomainsProjectId } from '../../shared/domain/errors';
import { assertRequiredParams } from '../../shared/domain/required-param';
import { customDomainListSchema, customDomainSchema, type CustomDomainView } from '../../shared/schemas/custom-domains';
import type { CallContext } from './backoffice';
import { path, type HttpMethod } from './http';

type Call = <T>(c: CallContext, method: HttpMethod, p: string, schema?: z.ZodType<T>, body?: unknown) => Promise<T>;

/**
 * Spec §7 custom-domain calls. @ory/client has no method for them (CONTRACT.md), so they go through our
 * own client; the list needs a project id (spec §5).
 */
export function createCustomDomainCalls(call: Call) {
  return {
    list(c: CallContext, projectId: string | undefined): Promise<CustomDomainView[]> {
      const id = requireCustomDomainsProjectId(projectId);
      return call(c, 'GET', path`/projects/${id}/cname`, customDomainListSchema);
    },
    create(c: CallContext, projectId: string, body: CreateCustomDomainBody): Promise<CustomDomainView> {
      assertRequiredParams('createCustomDomain', { projectId, createCustomDomainBody: body });
      return call(c, 'POST', path`/projects/${projectId}/cname`, customDomainSchema, body);
    },
    update(c: CallContext, projectId: string, domainId: string, body: SetCustomDomainBody): Promise<CustomDomainView> {
      assertRequiredParams('setCustomDomain', { projectId, cnameId: domainId, setCustomDomainBody: body });
      return call(c, 'PUT', path`/projects/${projectId}/cname/${domainId}`, customDomainSchema, body);
    },
    async remove(c: CallContext, projectId: string, domainId: string): Promise<void> {
      assertRequiredParams('deleteCustomDomain', { projectId, cnameId: domainId });
      await call(c, 'DELETE', path`/projects/${projectId}/cname/${domainId}`);
    },
  };
}
