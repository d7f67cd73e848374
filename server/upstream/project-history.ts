import type { z } from 'zod';
import { projectRevisionDetailSchema, projectRevisionsPageSchema } from '../../shared/schemas/project-history';
import type { CallContext } from './backoffice';
import { path, type HttpMethod } from './http';

type Call = <T>(c: CallContext, method: HttpMethod, p: string, schema?: z.ZodType<T>, body?: unknown, query?: Record<string, string | number | undefined>) => Promise<T>;

/** The history of a project's configuration: the control plane's revisions, one with the one before it, and restoring one. */
export function createProjectHistoryCalls(call: Call) {
  return {
    list: (c: CallContext, projectId: string, pageToken?: string) =>
      call(c, 'GET', path`/projects/${projectId}/revisions`, projectRevisionsPageSchema, undefined, { page_size: 25, page_token: pageToken }),
    get: (c: CallContext, projectId: string, revisionId: string) => call(c, 'GET', path`/projects/${projectId}/revisions/${revisionId}`, projectRevisionDetailSchema),
    async restore(c: CallContext, projectId: string, revisionId: string, currentRevisionId: string): Promise<void> {
      await call(c, 'POST', path`/projects/${projectId}/revisions/${revisionId}/restore`, undefined, { current_revision_id: currentRevisionId });
    },
  };
}
