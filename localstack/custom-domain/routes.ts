import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { domainNameSchema } from '../../shared/domain/domain-name';
import { createCustomDomainBody, customDomainListSchema, customDomainSchema, setCustomDomainBody } from '../../shared/schemas/custom-domains';
import { assertLoopback } from '../courier/service';
import type { Caller } from '../kernel/caller';
import type { LocalStackContext } from '../kernel/context';
import { conflict, forbidden, notFound } from '../kernel/errors';
import { projectFor, type ProjectAction } from '../kernel/permissions';
import type { Queryable } from '../kernel/queryable';
import { route } from '../kernel/route';
import { projectIdParams } from '../project/bodies';
import { addDomain, changeDomain, checkProjectDomains, removeDomain } from './service';
import { findDomain } from './store';
import { customDomainView } from './views';

const pathUuid = z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase());
const cnameParams = z.object({ cname_id: pathUuid });
const projectCnameParams = z.object({ project_id: pathUuid, cname_id: pathUuid });

/**
 * A domain and its project, the caller's `action` checked on the project: 404 for a domain that does not
 * exist (or not in the project the path names), then the project's 404/403.
 */
async function domainFor(q: Queryable, caller: Caller, cnameId: string, projectId: string | undefined, action: ProjectAction, lock: boolean) {
  const row = await findDomain(q, cnameId);
  const missing = notFound(`No custom domain ${cnameId} exists${projectId ? ` in project ${projectId}` : ''}.`);
  if (!row || (projectId !== undefined && row.project_id !== projectId)) {
    // Tell a stranger nothing more than a missing project would.
    if (projectId !== undefined) await projectFor(q, caller, projectId, action, lock);
    throw missing;
  }
  const { project } = await projectFor(q, caller, row.project_id, action, lock);
  return { row, project };
}

/**
 * Custom domains (spec §7; CONTRACT.md: no SDK method, customDomain shapes). Members list a project's
 * domains, each looked up in DNS as it is listed, so that its statuses follow the CNAME record; writers add
 * and change them, and delete them with the project's delete permission. A domain by id answers at
 * `/cname/{id}` and at `/projects/{project}/cname/{id}` alike.
 */
export function registerCustomDomainRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/cname',
    params: projectIdParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: customDomainListSchema,
    handler: async ({ q, project }) => (await checkProjectDomains(q, ctx.dns, project, ctx.clock.now())).map(customDomainView),
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project_id/cname',
    params: projectIdParams,
    body: createCustomDomainBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    response: customDomainSchema,
    handler: async ({ q, project, body }) => customDomainView(await addDomain(q, project, body, ctx.clock.now())),
  });

  for (const url of ['/cname/:cname_id', '/projects/:project_id/cname/:cname_id']) {
    const params = url.startsWith('/cname') ? cnameParams : projectCnameParams;
    const projectIdOf = (p: { cname_id: string; project_id?: string }) => p.project_id;
    route(scope, ctx, {
      method: 'PUT',
      url,
      params,
      body: setCustomDomainBody,
      auth: 'session-or-workspace-key',
      response: customDomainSchema,
      handler: async ({ q, caller, params: p, body }) => {
        const { row } = await domainFor(q, caller, p.cname_id, projectIdOf(p), 'write', true);
        return customDomainView(await changeDomain(q, row, body, ctx.clock.now()));
      },
    });
    route(scope, ctx, {
      method: 'DELETE',
      url,
      params,
      auth: 'session-or-workspace-key',
      status: 204,
      handler: async ({ q, caller, params: p }) => {
        const { row } = await domainFor(q, caller, p.cname_id, projectIdOf(p), 'delete', true);
        await removeDomain(q, row);
      },
    });
  }
}

const dnsRecordBody = z.object({ name: domainNameSchema, cname: domainNameSchema });
const dnsRecordParams = z.object({ name: domainNameSchema });

function loopbackOnly(req: Parameters<typeof assertLoopback>[0]) {
  try {
    assertLoopback(req);
  } catch {
    throw forbidden('DNS records of the local DNS server can be set only by clients on this machine.');
  }
}

/**
 * Developer tools of the local DNS server (with the local mailbox, loopback clients only): `PUT /local/dns
 * {name, cname}` sets a CNAME record, `DELETE /local/dns/{name}` removes it, `GET /local/dns` lists them.
 * With that a custom domain goes pending → active (or inactive, or not-found) on its next check, as it would
 * with a real DNS provider.
 */
export function registerLocalDnsRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  const server = () => {
    if (!ctx.localDns) throw conflict('The local DNS server does not run: this stack looks custom domains up in the DNS servers it was given.');
    return ctx.localDns;
  };
  route(scope, ctx, {
    method: 'GET',
    url: '/local/dns',
    auth: 'public',
    handler: async ({ req }) => {
      loopbackOnly(req);
      return { address: server().address, records: server().records() };
    },
  });
  route(scope, ctx, {
    method: 'PUT',
    url: '/local/dns',
    body: dnsRecordBody,
    auth: 'public',
    status: 204,
    handler: async ({ req, body }) => {
      loopbackOnly(req);
      server().set(body.name, body.cname);
    },
  });
  route(scope, ctx, {
    method: 'DELETE',
    url: '/local/dns/:name',
    params: dnsRecordParams,
    auth: 'public',
    status: 204,
    handler: async ({ req, params }) => {
      loopbackOnly(req);
      if (!server().delete(params.name)) throw notFound(`The local DNS server has no record for ${params.name}.`);
    },
  });
}
