import type { SetCustomDomainBody } from '@ory/client';
import { canonicalHostname, cnameTarget, customDomainState } from '../../shared/domain/custom-domain';
import { assertRoomFor } from '../billing/quota';
import { isUniqueViolation } from '../db/errors';
import { badRequest, conflict } from '../kernel/errors';
import type { Queryable } from '../kernel/queryable';
import type { ProjectRow } from '../project/schema';
import type { CnameAnswer, CnameLookup } from '../kernel/dns';
import type { CustomDomainRow } from './schema';
import { deleteDomainRow, findDomainByHostname, insertDomain, listProjectDomains, updateDomainRow } from './store';

/** A newly added domain: spec §4, pending verification until DNS says where it points. */
const NEW_DOMAIN = { ssl_status: 'initializing', verification_status: 'pending' } as const;

type Statuses = Pick<CustomDomainRow, 'ssl_status' | 'verification_status' | 'verification_errors' | 'verified_at'>;

/**
 * Where a domain's statuses go on a DNS answer:
 * - a CNAME to the project's target: verified, the certificate active (the domain is active);
 * - a CNAME elsewhere: verification failed, no certificate (inactive), with the record named;
 * - no record, before the domain was ever verified: still pending validation;
 * - no record, after it was verified: the record was removed (verification `deleted`: not-found);
 * - no answer at all (timeout, server failure): unchanged, nothing can be concluded.
 */
export function statusesAfter(domain: Pick<CustomDomainRow, 'hostname'> & Statuses, answer: CnameAnswer, expected: string, now: Date): Statuses {
  const unchanged = { ssl_status: domain.ssl_status, verification_status: domain.verification_status, verification_errors: domain.verification_errors, verified_at: domain.verified_at };
  switch (answer.kind) {
    case 'unknown':
      return unchanged;
    case 'cname':
      if (answer.target === expected) return { ssl_status: 'active', verification_status: 'active', verification_errors: [], verified_at: domain.verified_at ?? now };
      return {
        ssl_status: 'inactive',
        verification_status: 'failed',
        verification_errors: [`The CNAME record of ${domain.hostname} points to ${answer.target}; point it to ${expected}.`],
        verified_at: domain.verified_at,
      };
    case 'none':
      if (domain.verified_at) {
        return {
          ssl_status: 'pending_deletion',
          verification_status: 'deleted',
          verification_errors: [`${domain.hostname} has no CNAME record any more; add one that points to ${expected}.`],
          verified_at: domain.verified_at,
        };
      }
      return {
        ssl_status: 'pending_validation',
        verification_status: 'pending',
        verification_errors: [`${domain.hostname} has no CNAME record yet; add one that points to ${expected}.`],
        verified_at: null,
      };
  }
}

const same = (a: Statuses, b: Statuses) =>
  a.ssl_status === b.ssl_status &&
  a.verification_status === b.verification_status &&
  JSON.stringify(a.verification_errors) === JSON.stringify(b.verification_errors) &&
  (a.verified_at?.getTime() ?? null) === (b.verified_at?.getTime() ?? null);

/** Looks every domain of a project up in DNS (all at once) and stores the statuses the answers lead to. */
export async function checkProjectDomains(q: Queryable, dns: CnameLookup, project: Pick<ProjectRow, 'id' | 'slug'>, now: Date): Promise<CustomDomainRow[]> {
  const rows = await listProjectDomains(q, project.id);
  const expected = cnameTarget(project.slug);
  return Promise.all(
    rows.map(async (row) => {
      const next = statusesAfter(row, await dns.resolveCname(row.hostname), expected, now);
      return same(row, next) ? row : updateDomainRow(q, row.id, { ...next, updated_at: now });
    }),
  );
}

/** The settings of a body, as columns (only those given). */
function settingsOf(body: SetCustomDomainBody) {
  return {
    ...(body.cookie_domain !== undefined ? { cookie_domain: canonicalHostname(body.cookie_domain) } : {}),
    ...(body.custom_ui_base_url !== undefined ? { custom_ui_base_url: body.custom_ui_base_url } : {}),
    ...(body.cors_enabled !== undefined ? { cors_enabled: body.cors_enabled } : {}),
    ...(body.cors_allowed_origins !== undefined ? { cors_allowed_origins: body.cors_allowed_origins } : {}),
  };
}

/** A cookie domain must be the host name itself or one of its parents, or cookies would never be sent back. */
function assertCookieDomain(hostname: string, cookieDomain: string | undefined): void {
  if (!cookieDomain) return;
  if (hostname === cookieDomain || hostname.endsWith(`.${cookieDomain}`)) return;
  throw badRequest(`The cookie domain ${cookieDomain} is not ${hostname} or a parent domain of it.`, { field: 'cookie_domain' });
}

const inUse = (hostname: string) =>
  conflict(`The domain ${hostname} is in use in another project. A custom domain can be added to one project at a time.`);

/** Adds a domain to a project: one project per host name (409 otherwise), within the plan's custom_domains. */
export async function addDomain(q: Queryable, project: Pick<ProjectRow, 'id' | 'workspace_id'>, body: { hostname: string } & SetCustomDomainBody, now: Date): Promise<CustomDomainRow> {
  const hostname = canonicalHostname(body.hostname);
  const settings = settingsOf(body);
  assertCookieDomain(hostname, settings.cookie_domain);
  const existing = await findDomainByHostname(q, hostname);
  if (existing?.project_id === project.id) throw badRequest(`${hostname} is already a custom domain of this project.`, { field: 'hostname' });
  if (existing) throw inUse(hostname);
  await assertRoomFor(q, { kind: 'project', project }, 'custom_domains', 'custom domains', now);
  try {
    return await insertDomain(q, {
        project_id: project.id,
        hostname,
        cookie_domain: '',
        custom_ui_base_url: '',
        cors_enabled: false,
        cors_allowed_origins: [],
        ...settings,
        ...NEW_DOMAIN,
        created_at: now,
        updated_at: now,
      });
  } catch (err) {
    // Another project took the name between the look-up and the insert.
    if (isUniqueViolation(err)) throw inUse(hostname);
    throw err;
  }
}

/** Changes a domain's settings; its host name stays (a different one is a new domain: remove and add). */
export async function changeDomain(q: Queryable, row: CustomDomainRow, body: SetCustomDomainBody, now: Date): Promise<CustomDomainRow> {
  if (body.hostname !== undefined && canonicalHostname(body.hostname) !== row.hostname) {
    throw badRequest(`A custom domain's host name cannot change; remove ${row.hostname} and add the new name instead.`, { field: 'hostname' });
  }
  const settings = settingsOf(body);
  assertCookieDomain(row.hostname, settings.cookie_domain);
  return updateDomainRow(q, row.id, { ...settings, updated_at: now });
}

export const removeDomain = (q: Queryable, row: CustomDomainRow) => deleteDomainRow(q, row.id);

/** Whether the data plane answers on a domain (spec §4: active). */
export const isServing = (row: Pick<CustomDomainRow, 'ssl_status' | 'verification_status'>) => customDomainState(row) === 'active';
